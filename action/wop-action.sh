#!/usr/bin/env bash
# action/wop-action.sh: the logic of the GitHub Action in action.yml (its
# one step runs this). It installs wop from the release archives, checked
# against the release's checksums.txt, then lints a path: annotations on the
# diff (--format github), a SARIF report for code scanning, a table in the
# job's step summary, and an exit status by the fail-on threshold.
#
# Inputs (action.yml passes its inputs so):
#   WOP_ACTION_PATH     what to lint (default .)
#   WOP_ACTION_VERSION  wop's version, X.Y.Z; default: the version of the
#                       action's own ref (WOP_ACTION_REF, e.g. v0.1.0)
#   WOP_ACTION_FAIL_ON  error (default), warning (--strict) or none
#   WOP_ACTION_AGAINST  the previous release, passed to --against
#   WOP_ACTION_SARIF    the SARIF file to write (default wop.sarif)
#   WOP_ACTION_RELEASES the releases' base URL (default GitHub's; the tests
#                       serve a snapshot on loopback)
# and the runner's RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH,
# GITHUB_OUTPUT and GITHUB_STEP_SUMMARY. Needs bash, curl, tar (unzip on
# Windows) and sha256sum or shasum: every GitHub-hosted runner has them.
#
# Exit status: wop's (0 clean, 1 findings at the threshold, 2 lint could not
# run), 0 for findings with fail-on none, and 1 when wop cannot be
# installed; a tampered or unlisted archive is never extracted.
set -euo pipefail

die() {
  echo "::error title=wop action::$*" >&2
  exit 1
}

path=${WOP_ACTION_PATH:-.}
fail_on=${WOP_ACTION_FAIL_ON:-error}
against=${WOP_ACTION_AGAINST:-}
sarif=${WOP_ACTION_SARIF:-wop.sarif}
releases=${WOP_ACTION_RELEASES:-https://github.com/wop-cli/wop/releases/download}
case $fail_on in error | warning | none) ;; *) die "fail-on is $fail_on: give error, warning or none" ;; esac

version=${WOP_ACTION_VERSION:-}
if [ -z "$version" ]; then
  case ${WOP_ACTION_REF:-} in
    v[0-9]*) version=${WOP_ACTION_REF#v} ;;
    *) die "no version: the action's ref '${WOP_ACTION_REF:-}' is not a release tag (a commit pin, a branch), so give the version input, e.g. version: 0.1.0" ;;
  esac
fi
version=${version#v}
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "version $version is not a release version (X.Y.Z)"

case ${RUNNER_OS:-$(uname -s)} in
  Linux) goos=linux ;;
  macOS | Darwin) goos=darwin ;;
  Windows | MINGW* | MSYS*) goos=windows ;;
  *) die "no wop release for the runner's OS ${RUNNER_OS:-$(uname -s)}" ;;
esac
case ${RUNNER_ARCH:-$(uname -m)} in
  X64 | x86_64 | amd64) goarch=amd64 ;;
  ARM64 | aarch64 | arm64) goarch=arm64 ;;
  *) die "no wop release for the runner's CPU ${RUNNER_ARCH:-$(uname -m)}: there are amd64 and arm64" ;;
esac
exe=
ext=tar.gz
if [ $goos = windows ]; then exe=.exe ext=zip; fi
archive=wop_${version}_${goos}_${goarch}.$ext

# Download the archive and checksums.txt, and check one against the other
# before anything is extracted.
tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/wop-action.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for f in checksums.txt "$archive"; do
  curl -fsSL --retry 3 -o "$tmp/$f" "$releases/v$version/$f" ||
    die "could not download $releases/v$version/$f (is v$version a wop release?)"
done
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || die "checksums.txt of v$version does not list $archive: not installing it"
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
else
  got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
fi
[ "$got" = "$want" ] || die "$archive's sha256 is $got, but checksums.txt says $want: the download is corrupt or tampered with; not installing it"

install=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/wop-$version-${goos}_$goarch
rm -rf "$install"
mkdir -p "$tmp/x"
if [ $ext = zip ]; then
  unzip -q "$tmp/$archive" -d "$tmp/x"
else
  tar -xzf "$tmp/$archive" -C "$tmp/x"
fi
[ -f "$tmp/x/wop$exe" ] || die "$archive holds no wop$exe"
mv "$tmp/x" "$install"
wop=$install/wop$exe
installed=$("$wop" --version | head -n 1) || die "the installed $wop does not run"
echo "wop action: installed $installed ($archive, sha256 $got) into $install"
if [ -n "${GITHUB_PATH:-}" ]; then echo "$install" >>"$GITHUB_PATH"; fi

# Lint: the SARIF report first (written only once lint ran), then the
# annotations, whose exit status decides; the second run is served from
# wop's lint cache.
args=(pack lint "$path")
if [ -n "$against" ]; then args+=(--against "$against"); fi
strict=()
if [ "$fail_on" = warning ]; then strict=(--strict); fi
"$wop" "${args[@]}" --format sarif --output "$sarif" 2>/dev/null || true
set +e
"$wop" "${args[@]}" "${strict[@]}" --format github >"$tmp/annotations" 2>"$tmp/stderr"
code=$?
set -e
cat "$tmp/annotations"
cat "$tmp/stderr" >&2

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  if [ -f "$sarif" ]; then echo "sarif=$sarif" >>"$GITHUB_OUTPUT"; fi
  echo "exit-code=$code" >>"$GITHUB_OUTPUT"
fi
# The findings' table is wop's own: --format github appends it to the step
# summary (severity, rule, file:line linking into the commit), so the
# summary says here only what wop cannot: which wop ran and what the step did.
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    if [ -s "$tmp/stderr" ]; then sed 's/^/> /' "$tmp/stderr"; echo; fi
    if [ "$code" -eq 0 ] && ! grep -q '^::' "$tmp/annotations"; then echo "wop pack lint \`$path\`: no findings."; echo; fi
    echo "$installed, fail-on $fail_on: exit $code"
  } >>"$GITHUB_STEP_SUMMARY"
fi

if [ "$fail_on" = none ] && [ $code -eq 1 ]; then
  echo "wop action: findings reported; fail-on none keeps the job green"
  exit 0
fi
exit $code
