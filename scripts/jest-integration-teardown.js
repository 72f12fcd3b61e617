module.exports = async function teardown() {
  await Promise.all((globalThis.__testContainers ?? []).map((container) => container.stop()));
};
