// Times wolges' exact endgame solver (its src/endgame.rs, unchanged but for a call counter) on given positions.
// Written for kubasolve's endgame benchmark (benchmarks/wolges_endgame/README.md); uses wolges' public API only.
//
// usage: nl_endgame KWG POSITIONS.jsonl
// Reads JSON lines with "board" (15 strings of 15 chars: '.' empty, 'A'-'Z' a tile, 'a'-'z' a blank standing for that
// letter), "racks" (two strings, the player to move's first, e.g. ["EEEEPST", "ADQ?"]) and an "id" that is echoed.
// Per position, as wolges' own batch mode does: the word list is pruned to the words still playable on the board
// (gen_remaining_words, then a gaddawg of those), and EndgameSolver::solve(0) runs to the end (no time limit in
// wolges: the caller runs one position per process under a timeout). The rules are wolges': two passes in a row end
// the game, each player losing their rack's value; going out earns twice the opponent's rack.
// Prints one JSON line per position: id, value (points, the mover's spread from now on), nodes (negamax calls),
// prune_s (the word list pruning), solve_s.
use std::io::BufRead;
use std::time::Instant;
use wolges::{bites, build, endgame, equity, fash, game_config, klv, kwg, movegen};

const DIM: usize = 15;

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let k = format!("\"{}\":", key);
    let i = line.find(&k)? + k.len();
    Some(line[i..].trim_start())
}

fn strings_after(s: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = s;
    while out.len() < n {
        let a = match rest.find('"') { Some(a) => a, None => break };
        let b = rest[a + 1..].find('"').unwrap() + a + 1;
        out.push(rest[a + 1..b].to_string());
        rest = &rest[b + 1..];
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 { eprintln!("usage: nl_endgame KWG POSITIONS.jsonl"); std::process::exit(2); }
    let kwg = kwg::Kwg::<kwg::Node22>::from_bytes_alloc(&std::fs::read(&args[1])?);
    let klv = klv::Klv::<kwg::Node22>::from_bytes_alloc(klv::EMPTY_KLV_BYTES);
    let gc = game_config::make_dutch_game_config();
    let alph = gc.alphabet();
    let mut board_code = std::collections::HashMap::new();
    let mut rack_code = std::collections::HashMap::new();
    for t in 1..alph.len() {
        if let Some(s) = alph.of_board(t) { board_code.insert(s.to_string(), t); }
        if let Some(s) = alph.of_board(t | 0x80) { board_code.insert(s.to_string(), t | 0x80); }
        if let Some(s) = alph.of_rack(t) { rack_code.insert(s.to_string(), t); }
    }
    rack_code.insert("?".to_string(), 0u8);
    let mut mg = movegen::KurniaMoveGenerator::new(&gc);
    for (lineno, line) in std::io::BufReader::new(std::fs::File::open(&args[2])?).lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() { continue; }
        let id = field(&line, "id").map(|s| s.split(|c: char| c == ',' || c == '}').next().unwrap().trim().to_string())
            .unwrap_or(lineno.to_string());
        let rows = strings_after(field(&line, "board").ok_or("no board")?, DIM);
        let racks_s = strings_after(field(&line, "racks").ok_or("no racks")?, 2);
        let mut board = vec![0u8; DIM * DIM];
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch != '.' { board[r * DIM + c] = *board_code.get(&ch.to_string()).ok_or("bad board letter")?; }
            }
        }
        let racks: Vec<Vec<u8>> = racks_s.iter()
            .map(|s| s.chars().map(|ch| *rack_code.get(&ch.to_string()).expect("bad rack letter")).collect())
            .collect();
        let t0 = Instant::now();
        let mut words = fash::MyHashSet::<bites::Bites>::default();
        mg.gen_remaining_words(
            &movegen::BoardSnapshot { board_tiles: &board, game_config: &gc, kwg: &kwg, klv: &klv },
            |word: &[u8]| { words.insert(word.into()); },
        );
        let mut words = words.into_iter().collect::<Vec<_>>();
        words.sort_unstable();
        let small = kwg::Kwg::<kwg::Node22>::from_bytes_alloc(
            &build::build(build::BuildContent::Gaddawg, build::BuildLayout::Wolges, &words)?);
        let prune_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        endgame::NODES.store(0, std::sync::atomic::Ordering::Relaxed);
        let mut solver = endgame::EndgameSolver::<kwg::Node22, kwg::Node22>::new(&gc, &small);
        solver.init(&board, [&racks[0], &racks[1]]);
        let v = solver.solve(0);
        let solve_s = t1.elapsed().as_secs_f64();
        let nodes = endgame::NODES.load(std::sync::atomic::Ordering::Relaxed);
        println!("RESULT {{\"id\":{},\"value\":{},\"nodes\":{},\"prune_s\":{:.4},\"solve_s\":{:.4}}}",
                 id, (v / equity::SCALE as f32).round() as i64, nodes, prune_s, solve_s);
    }
    Ok(())
}
