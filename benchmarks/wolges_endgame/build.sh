#!/usr/bin/env bash
# Build wolges' endgame solver with kubasolve's timing program (nl_endgame.rs beside this script), offline.
# Needs the wolges kit built first (../shared/crossword/kit/build.sh WORKDIR: the source, the crate stand-ins and the
# Dutch graph WORKDIR/nl.kwg). Usage, from the project root: bash benchmarks/wolges_endgame/build.sh [WORKDIR]
#   WORKDIR  default $KUBASOLVE_WOLGES_DIR or /tmp/wolges-kit
# Result: WORKDIR/wolges-endgame/target/release/nl_endgame (run: nl_endgame WORKDIR/nl.kwg POSITIONS.jsonl).
# What differs from wolges' source: its endgame module is compiled (the kit leaves it out) with move_picker's
# small Periods struct copied in (move_picker itself needs more of rand than the kit's stand-in has), and negamax_eval counts its calls in `endgame::NODES`.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
W="${1:-${KUBASOLVE_WOLGES_DIR:-/tmp/wolges-kit}}"
CARGO="${CARGO:-$(command -v cargo || echo /root/.cargo/bin/cargo)}"
if [ ! -f "$W/wolges/Cargo.toml" ] || [ ! -f "$W/nl.kwg" ]; then
  echo "no wolges kit in $W: build it first (bash ../shared/crossword/kit/build.sh $W)" >&2
  exit 1
fi
E="$W/wolges-endgame"
rm -rf "$E"
mkdir -p "$E"
cp -r "$W/wolges/src" "$W/wolges/shims" "$W/wolges/Cargo.toml" "$E/"
# the kit's lib.rs leaves out the endgame module; it needs only move_picker's Periods (a progress tick), and
# move_picker needs a fuller rand than the kit's stand-in, so endgame.rs gets that small struct of its own
grep -q "^pub mod endgame;" "$E/src/lib.rs" || echo "pub mod endgame;" >> "$E/src/lib.rs"
perl -0pi -e 's/use super::\{display, fash, game_config, klv, kwg, move_picker, movegen\};/use super::{display, fash, game_config, klv, kwg, movegen};\nmod move_picker {\n    pub struct Periods(pub u64);\n    impl Periods {\n        #[inline(always)]\n        pub fn update(&mut self, new_periods: u64) -> bool {\n            if new_periods != self.0 {\n                self.0 = new_periods;\n                true\n            } else {\n                false\n            }\n        }\n    }\n}/' "$E/src/endgame.rs"
grep -q "^mod move_picker" "$E/src/endgame.rs" || { echo "could not replace move_picker::Periods" >&2; exit 1; }
# a call counter at the top of negamax_eval (its nodes: positions entered, table hits included)
perl -0pi -e 's/(\n    fn negamax_eval\(.*?\) -> f32 \{\n)/\n    #[inline(always)]\n    fn count_node() { NODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed); }\n$1        Self::count_node();\n/s' "$E/src/endgame.rs"
echo 'pub static NODES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);' >> "$E/src/endgame.rs"
grep -q "Self::count_node();" "$E/src/endgame.rs" || { echo "could not add the node counter" >&2; exit 1; }
cp "$HERE/nl_endgame.rs" "$E/src/main_nl_endgame.rs"
cat >> "$E/Cargo.toml" <<'TOML'

[[bin]]
name = "nl_endgame"
path = "src/main_nl_endgame.rs"
TOML
cd "$E"
"$CARGO" build --release --offline --bin nl_endgame
echo "wolges endgame timing tool: $E/target/release/nl_endgame"
