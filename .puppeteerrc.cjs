// The browser is Debian's chromium-headless-shell (installed by scripts/install-system.sh),
// never a download: this machine and CI reach only the npm registry and Debian's packages.
module.exports = { skipDownload: true };
