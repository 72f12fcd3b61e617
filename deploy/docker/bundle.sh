#!/bin/sh
# Usage: bundle.sh <workspace package name>, in the build stage of the Dockerfile.
# Replaces node_modules with the production dependencies of that one workspace, then gathers into
# /bundle what its image needs: the root manifest, node_modules, and for the workspace and every
# workspace it links (node_modules/@cm/*) its package.json, dist/ and own node_modules/.
set -eu
workspace="$1"

npm ci --omit=dev --workspace "$workspace"

mkdir -p /bundle
cp -a package.json node_modules /bundle/
for link in node_modules/@cm/*; do
  dir=$(cd "$link" && pwd -P)
  rel=${dir#"$PWD"/}
  [ -d "$dir/dist" ] || { echo "bundle.sh: $rel has no dist/: was it built?" >&2; exit 1; }
  mkdir -p "/bundle/$rel"
  cp -a "$dir/package.json" "$dir/dist" "/bundle/$rel/"
  # tsc -b's record of what it built: of use to the next build, not to the image.
  rm -f "/bundle/$rel/dist/"*.tsbuildinfo
  if [ -d "$dir/node_modules" ]; then cp -a "$dir/node_modules" "/bundle/$rel/"; fi
done
