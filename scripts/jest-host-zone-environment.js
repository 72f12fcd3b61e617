// A node test environment in which a test can move the host's time zone. jest gives each test
// file a copy of process.env, so `process.env.TZ = …` in a test changes nothing: the zone Node
// (Date, Intl) uses follows only the real process.env.TZ. This environment, which runs outside
// the test's sandbox, hands the test `setHostZone(zone)` to set the real one, and puts the
// zone back when the file is done. Used by a docblock:
//   /** @jest-environment ../../scripts/jest-host-zone-environment.js */
const { TestEnvironment } = require('jest-environment-node');

class HostZoneEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.zoneBefore = process.env.TZ;
    // undefined: the zone the file started with.
    this.global.setHostZone = (zone = this.zoneBefore) => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    };
  }

  async teardown() {
    this.global.setHostZone(undefined);
    await super.teardown();
  }
}

module.exports = HostZoneEnvironment;
