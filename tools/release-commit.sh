#!/usr/bin/env bash
# npm run release:commit -- makes the release of the version in package.json: a commit on top of
# the current one that holds the package as it is published, tagged v<version>, and after it a
# commit with the development tree again, so the branch goes on as before and the tag is in its
# history (pre-commit autoupdate finds the tags of the default branch). Then:
#   git push origin HEAD v<version>
# and .github/workflows/release.yml tests, publishes and attaches the tarball.
#
# The release commit differs from its parent only in dist/ (built, so nothing installing the tag
# builds: the pre-commit hook, the GitHub Action, `npm install <git url>#v<version>`), package.json
# as published (no devDependencies, no scripts: npm installs only the dependencies and runs no
# script of ours) and package-lock.json for those dependencies. The release workflow checks that.
# The work tree, the index and the files in them are not touched (a temporary index is used).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "release: $1" >&2; exit 1; }

version="$(node -p 'require("./package.json").version')"
tag="v$version"
branch="$(git symbolic-ref --quiet --short HEAD)" || fail "HEAD is detached: check out the branch to release from. Run it on main."
[ -z "$(git status --porcelain --untracked-files=no)" ] || fail "the work tree has uncommitted changes: $(git status --porcelain --untracked-files=no | head -1). Commit them first."
! git rev-parse --quiet --verify "refs/tags/$tag" >/dev/null || fail "the tag $tag exists: $(git rev-parse --short "$tag"). Raise the version in package.json and lib/documentation-url.ts first."
[ -x node_modules/.bin/tsup ] || fail "node_modules/.bin/tsup is missing: run npm ci first."

work="$(mktemp -d -t nlgov-adr-release.XXXXXX)"
trap 'rm -rf "$work"' EXIT

node_modules/.bin/tsup >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "the build (tsup) failed, its output above."; }

# package.json as published, and a lock file for its dependencies only (resolved from the
# development lock file, so the versions the tests ran with).
mkdir "$work/manifest"
node -e '
  const { readFileSync, writeFileSync } = require("node:fs");
  const manifest = JSON.parse(readFileSync("package.json", "utf8"));
  for (const key of ["devDependencies", "scripts", "overrides"]) delete manifest[key];
  writeFileSync(process.argv[1], JSON.stringify(manifest, null, 2) + "\n");
' "$work/manifest/package.json"
cp package-lock.json "$work/manifest/package-lock.json"
(cd "$work/manifest" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund --prefer-offline >"$work/lock.log" 2>&1) \
  || { cat "$work/lock.log" >&2; fail "npm could not write the release's package-lock.json, npm's output above."; }

export GIT_INDEX_FILE="$work/index"
git read-tree HEAD
git add --force dist
for file in package.json package-lock.json; do
  git update-index --cacheinfo "100644,$(git hash-object -w "$work/manifest/$file"),$file"
done
release="$(git commit-tree "$(git write-tree)" -p HEAD -m "Release $tag: dist/ built, package.json as published (no devDependencies, no scripts), package-lock.json for its dependencies")"
unset GIT_INDEX_FILE

git tag --annotate "$tag" --message "nlgov-adr $version" "$release"
development="$(git commit-tree "HEAD^{tree}" -p "$release" -m "Development after $tag: the tree of $(git rev-parse --short HEAD) again")"
git update-ref -m "release: development after $tag" "refs/heads/$branch" "$development" HEAD

echo "Tagged $tag ($(git rev-parse --short "$release")); $branch is at $(git rev-parse --short "$development") with the development tree."
echo "Publish: git push origin $branch $tag"
