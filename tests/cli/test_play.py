"""One terminal ``play`` for every game over the protocol (issue 21, point 4): seats named the same way (``human``,
``greedy``, ``greedy#2``), the legal-move list and the rendering from the protocol, ``q`` prints the scores, saved games
resume; ``kubasolve play|simulate|show --game KIND`` (a sixth game with ``--game-module``); the exit codes of
docs/cli.md: 0 ok, 1 a domain error, 2 a usage error."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kubasolve.cli.main import build_parser, main

Capsys = pytest.CaptureFixture[str]
NIM = str(Path(__file__).resolve().parents[1] / "protocol" / "nim_game.py")
AI = {"kubagram": "greedy", "rummikub": "greedy", "crossword": "score", "colonii": "greedy", "scruble": "greedy"}
FIRST_COMMAND = {"kubagram": "t [LETTER]", "rummikub": "d ", "crossword": "8H WORD", "colonii": "n WORD", "scruble": "TWISTS"}


def play(argv: list[str], script: str) -> str:
    """The text of ``kubasolve ARGV`` (a play command) fed ``script``."""
    args = build_parser().parse_args(argv)
    out = io.StringIO()
    assert args.func(args, stdin=io.StringIO(script), out=out) == 0
    return out.getvalue()


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", sorted(AI))
def test_every_game_plays_the_same_way(game: str) -> None:
    """Help, the numbered legal moves, a move chosen by its number, a command that is none, quit with the scores."""
    text = play([game, "play", "--players", f"human,{AI[game]}", "--seed", "4"], "?\nh\n1\nxyzzy 42\nq\n")
    assert f"{game.capitalize()}, seed 4: human, {AI[game]};" in text
    assert "N                  play the move numbered N" in text and FIRST_COMMAND[game] in text  # the game's commands
    assert "legal moves (" in text and "   1  " in text
    assert "\nhuman> ok" in text or "human> ok" in text  # the move numbered 1 was played
    assert "'xyzzy' is not a command" in text
    assert "scores so far:" in text and f"\n  {AI[game]}" in text and "\n  human" in text
    assert f"{game.capitalize()} | turn " in text  # the protocol's rendering


def test_seats_of_the_same_ai_are_numbered_and_an_ai_only_game_ends_with_the_winners() -> None:
    text = play(["kubagram", "play", "--players", "greedy,greedy,random", "--seed", "2", "--no-board"], "")
    assert "greedy, greedy#2, random;" in text and "greedy#2: " in text
    assert "final scores:" in text and "winner" in text


def test_kubagram_hints_are_commands_to_type_and_a_saved_game_resumes(tmp_path: Path) -> None:
    text = play(["kubagram", "play", "--seed", "5", "--no-board"], "h\nt\nh\nq\n")
    typed = [line.split()[1] for line in text.splitlines() if line.startswith("   ") and line.split()[0].isdigit()]
    assert {"t", "s", "e"} & set(typed) and "{'type'" not in text
    saved = tmp_path / "game.json"
    first = play(["kubagram", "play", "--seed", "5", "--no-board", "--save", str(saved)], "t\ne\nq\n")
    assert "scores so far:" in first and f"game saved to {saved}" in first
    data = json.loads(saved.read_text())
    assert data["format"] == "kubasolve-state" and data["players"] == ["human", "planner"]
    again = play(["kubagram", "play", "--resume", str(saved)], "q\n")
    assert f"resumed from {saved}: human, planner" in again and "Kubagram | turn" in again
    assert main(["kubagram", "show", str(saved)]) == 0  # show reads what play saves
    forged = {**data, "native": {**data["native"], "scores": [99, 0]}}
    saved.write_text(json.dumps(forged))
    with pytest.raises(Exception, match="replay"):
        play(["kubagram", "play", "--resume", str(saved)], "q\n")


def test_typed_commands_of_each_game_reach_the_referee() -> None:
    crossword = play(["crossword", "play", "--players", "human,score", "--seed", "7", "--no-board"], "8H QQQ\ng\nq\n")
    assert "not allowed" in crossword and "#player1" in crossword and ">p2: ABKOPRY 8C OPBRAK +32" in crossword  # the game as GCG
    colonii = play(["colonii", "play", "--players", "human,greedy", "--seed", "7", "--no-board"], "n zzzz\nq\n")
    assert "not allowed: move 0 (new 'zzzz')" in colonii
    rummikub = play(["rummikub", "play", "--players", "human,greedy", "--seed", "1", "--no-board"], "r1 r2 r3\nd\nq\n")
    assert "not allowed" in rummikub and "ok" in rummikub


def test_a_sixth_game_plays_and_simulates_from_a_module(capsys: Capsys) -> None:
    text = play(["play", "--game", "nim", "--game-module", NIM, "--players", "human,greedy", "--seed", "0"],
                '{"type": "take", "stones": 2}\nh\n1\nq\n')
    assert "Nim, seed 0: human, greedy;" in text and "ok  (human +2)" in text and "take 1" in text
    code, out, _ = run(capsys, "simulate", "--game", "nim", "--game-module", NIM, "--games", "3", "--json")
    assert code == 0 and json.loads(out)["games"] == 3 and {r["ai"] for r in json.loads(out)["summary"]} == {"random", "greedy"}


@pytest.mark.parametrize("argv, code, message", [
    (["kubagram", "play", "--players", "human,oracle"], 2, "unknown kubagram seat 'oracle'; choose from human, random"),
    (["crossword", "simulate", "--players", "score,oracle", "--games", "1"], 2, "unknown crossword AI 'oracle'; choose from score"),
    (["colonii", "simulate", "--players", "greedy,human", "--games", "1"], 2, "unknown colonii AI 'human'"),
    (["crossword", "simulate", "--players", "sim2:draw,equity2", "--games", "2"], 2, "--players: sim2:draw: the option is"),
    (["crossword", "play", "--players", "human,equity2:win"], 2, "--players: equity2:win: the option is"),
    (["play", "--game", "chess"], 2, "--game: unknown game 'chess'"),
    (["simulate", "--game", "nim", "--game-module", "/no/such/module.py"], 2, "cannot be imported"),
    (["rummikub", "simulate", "--games", "1", "--address", "auto"], 2, "--address goes with --backend ray"),
    (["rummikub", "simulate", "--games", "0"], 2, "expected a whole number from 1"),
    (["rummikub", "play", "--lexicon", "nl"], 2, "unrecognized arguments: --lexicon"),
    # the same mistake in the --game forms is the same usage error (exit 1 before)
    (["play", "--game", "rummikub", "--lexicon", "nl"], 2, "--lexicon: rummikub uses no lexicon"),
    (["show", "--game", "rummikub", "/no/such/file.json", "--lexicon", "nl"], 2, "--lexicon: rummikub uses no lexicon"),
    (["simulate", "--game", "rummikub", "--games", "1", "--lexicon", "nl"], 2, "--lexicon: rummikub uses no lexicon"),
    (["rummikub", "show", "/no/such/file.json"], 1, "no such file: /no/such/file.json"),
    (["rummikub", "simulate", "--games", "1", "--players", "greedy"], 1, "rummikub is played by 2 to"),
    (["rummikub", "simulate", "--games", "1", "--records", "/no/such/folder/r.jsonl"], 1, "does not exist"),
])
def test_exit_codes_are_those_of_the_docs(capsys: Capsys, argv: list[str], code: int, message: str) -> None:
    got, out, err = run(capsys, *argv)
    assert got == code and message in err and out == "" and "Traceback" not in err


def test_a_game_that_ends_is_saved_to_save_file(tmp_path: Path, capsys: Capsys) -> None:
    """``--save FILE`` keeps the finished game too (before, only ``q`` or the end of the input saved it: a game played
    to its end was lost), and ``show`` draws it."""
    saved = tmp_path / "nim.json"
    text = play(["play", "--game", "nim", "--game-module", NIM, "--players", "greedy,greedy", "--seed", "0",
                 "--save", str(saved)], "")
    assert "final scores:" in text and f"game saved to {saved}" in text
    data = json.loads(saved.read_text())
    assert data["format"] == "kubasolve-state" and data["native"]["taken"] and sum(data["native"]["taken"]) == 15
    code, out, err = run(capsys, "show", "--game", "nim", "--game-module", NIM, str(saved))
    assert code == 0 and "pile:  (0)" in out and "Traceback" not in err


def test_resume_refuses_rules_it_would_ignore(tmp_path: Path, capsys: Capsys) -> None:
    """A saved game goes on under the rules it holds: ``--resume`` with ``--rules`` or a rule flag is refused by name
    (exit 2), not silently ignored."""
    saved = tmp_path / "nim.json"
    play(["play", "--game", "nim", "--game-module", NIM, "--seed", "0", "--save", str(saved)], "q\n")
    rules = tmp_path / "rules.toml"
    rules.write_text("stones = 40\n")
    code, out, err = run(capsys, "play", "--game", "nim", "--game-module", NIM, "--resume", str(saved), "--rules", str(rules))
    assert code == 2 and "leave out --rules" in err and out == "" and "Traceback" not in err
    code, out, err = run(capsys, "play", "--game", "rummikub", "--resume", str(saved), "--joker-retrieval", "free")
    assert code == 2 and "leave out --joker-retrieval" in err and out == ""


@pytest.mark.parametrize("flag", [["--tiles", "en"], ["--joker-retrieval", "free"]])
def test_show_takes_no_rule_flag_it_would_ignore(tmp_path: Path, capsys: Capsys, flag: list[str]) -> None:
    """``show`` draws a saved game under the rules it holds: ``kubasolve show --game KIND`` takes no rule flag, like
    ``kubasolve KIND show`` (before, ``--tiles en`` or ``--joker-retrieval free`` was taken and ignored)."""
    for argv in (["show", "--game", "crossword"], ["show", "--game", "rummikub"], ["crossword", "show"], ["rummikub", "show"]):
        code, out, err = run(capsys, *argv, str(tmp_path / "any.json"), *flag)
        assert code == 2 and f"unrecognized arguments: {flag[0]}" in err and out == ""


class _CtrlC(io.StringIO):
    """Input that is interrupted (Ctrl-C) after its lines."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_keeps_the_game_in_save_file(tmp_path: Path) -> None:
    """Ctrl-C at the prompt stops the game (exit 130 in kubasolve.cli.main) but, like ``q`` and the end of the input,
    writes the game to ``--save`` first; before, the game was lost."""
    saved = tmp_path / "nim.json"
    args = build_parser().parse_args(["play", "--game", "nim", "--game-module", NIM, "--players", "human,greedy", "--seed",
                                      "0", "--save", str(saved)])
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        args.func(args, stdin=_CtrlC('{"type": "take", "stones": 2}\n'), out=out)
    assert f"(interrupted) game saved to {saved}" in out.getvalue()
    assert json.loads(saved.read_text())["native"]["taken"] == [2, 3]


def test_scruble_help_says_how_to_type_the_slice_twist_b_that_the_b_command_shadows() -> None:
    """Lower-case ``b`` is a Scruble twist (the inner slice 2B, docs/scruble.md) but ``b`` alone at the prompt draws
    the position (the generic command wins): the game's help says to type ``2B``, and ``2B`` plays that twist."""
    text = play(["scruble", "play", "--players", "human,random", "--seed", "4", "--no-board"], "?\nb\n2B\nq\n")
    assert "the slice twist b is typed 2B" in text
    assert "Scruble | turn 1" in text and "human> ok" in text


def test_generic_play_takes_the_games_deal_flags(capsys: Capsys) -> None:
    """``kubasolve play --game kubagram`` takes "the same flags" as ``kubasolve kubagram play`` (docs/cli.md): the deal
    setting ``--rotation`` too (it was an unrecognised argument, exit 2), with the same deal; one of another game than
    ``--game`` is refused by name. The crossword's old ``--gcg`` (= ``--resume``) is no flag of another game."""
    argv = ["--seed", "3", "--rotation", "90", "--players", "human,greedy", "--no-board"]
    own = play(["kubagram", "play", *argv], "b\nq\n")
    generic = play(["play", "--game", "kubagram", *argv], "b\nq\n")
    assert generic == own and "Kubagram | turn " in generic
    assert generic != play(["play", "--game", "kubagram", *argv[:3], "0", *argv[4:]], "b\nq\n")  # the flag is used
    code, out, err = run(capsys, "play", "--game", "rummikub", "--rotation", "90")
    assert code == 2 and "--rotation is a deal flag of kubagram, not of rummikub" in err and out == ""
    gcg = str(Path(__file__).resolve().parents[1] / "crossword" / "data" / "gcg" / "woogles_unfinished.gcg")
    text = play(["play", "--game", "crossword", "--gcg", gcg, "--players", "human,score", "--no-board"], "q\n")
    assert f"resumed from {gcg}" in text


DEEP = "[" * 100_000 + "]" * 100_000  # JSON that Python's json decodes recursively: a RecursionError, not a ValueError


def test_json_nested_too_deeply_is_refused_not_a_traceback(tmp_path: Path, capsys: Capsys) -> None:
    """A line typed (or piped) at the prompt, a file given to ``show`` or ``--resume``: JSON nested too deeply is a bad
    action or a bad saved game like any other text that is no JSON (a RecursionError traceback before)."""
    text = play(["play", "--game", "nim", "--game-module", NIM, "--seed", "0", "--no-board"],
                '{"type": ' + DEEP + "}\nq\n")
    assert "not allowed: not a JSON action: nested too deeply" in text and "bye" in text
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": ' + DEEP + "}")
    for argv in (["rummikub", "show", str(deep)], ["show", "--game", "crossword", str(deep)],
                 ["kubagram", "play", "--resume", str(deep)], ["show", "--game", "nim", "--game-module", NIM, str(deep)],
                 ["kubagram", "analyse", str(deep)]):
        code, out, err = run(capsys, *argv)
        assert code == 1 and "nested too deeply" in err and out == "" and "Traceback" not in err, argv


def test_a_moves_file_with_a_byte_order_mark_is_read_as_its_commands() -> None:
    """Moves piped from a file an editor saved with a UTF-8 byte-order mark: the first command is the command, not
    ``'\\ufeff?' is not a command``."""
    text = play(["play", "--game", "nim", "--game-module", NIM, "--seed", "0", "--no-board"], "\ufeff?\nq\n")
    assert "commands (one per line):" in text and "is not a command" not in text


def test_a_resumed_game_keeps_an_ai_seat_that_had_options(tmp_path: Path) -> None:
    """``--resume`` without ``--players`` seats the AIs the saved labels name; a label with the AI's options
    (``planner:2``, ``planner:2#2``) was taken for a person, so the AI's seat waited at a prompt."""
    saved = tmp_path / "game.json"
    play(["kubagram", "play", "--players", "human,planner:2", "--seed", "3", "--no-board", "--save", str(saved)], "q\n")
    assert json.loads(saved.read_text())["players"] == ["human", "planner:2"]
    text = play(["kubagram", "play", "--resume", str(saved), "--no-board"], "t\ne\nq\n")
    assert "planner:2> " not in text and "\nplanner:2: " in text  # the AI moved after the human's turn
    from kubasolve.cli.games import _seat_of_label
    from kubasolve.games import load_game

    game = load_game("kubagram")
    assert [_seat_of_label(game, n) for n in ("planner:2#2", "human#2", "ann", "greedy", "planner:99")] == [
        "planner:2", "human", "human", "greedy", "human"]


def test_w_reads_its_file_name_as_a_shell_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``w "a b.json"`` saves to ``a b.json`` (the quotes were part of the name before) and ``w ~/x.json`` to the
    home folder (before: a folder named ``~`` that does not exist); two names or an unclosed quote are refused."""
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    text = play(["play", "--game", "nim", "--game-module", NIM, "--seed", "0", "--no-board"],
                'w "a b.json"\nw ~/x.json\nw a b.json\nw "a\nq\n')
    assert (tmp_path / "a b.json").is_file() and not list(tmp_path.glob('"*'))
    assert "--resume 'a b.json'" in text
    assert (home / "x.json").is_file() and f"game saved to {home / 'x.json'}" in text
    assert "not saved: one file name, got 2" in text and "not saved: cannot read the file name" in text
    assert json.loads((tmp_path / "a b.json").read_text()) == json.loads((home / "x.json").read_text())


RESUMED = {"colonii": ("random", 1), "scruble": ("random", 1), "kubagram": ("random", 3), "rummikub": ("greedy", 1),
           "crossword": ("score", 1)}
"""Per game: the AI facing the human and the hinted moves (``h``, ``1``) before and after the stop (a Kubagram turn
is several: take, claims, end)."""


@pytest.mark.parametrize("game", sorted(RESUMED))
def test_a_game_resumed_with_its_seed_goes_on_as_the_game_never_stopped(game: str, tmp_path: Path) -> None:
    """The AIs of a resumed game drew from the seed given (default 0) and the moves made since the resume, so a random
    AI played other moves than in the game never stopped; now from the seed and the move's number in the game, and the
    saved-game notice says the ``--seed`` to go on with. The number is the turn's (``Result.turn - 1``): before, play
    counted the actions applied, which in Kubagram (several typed actions a turn) is not what a resumed game reads
    from its state, so a resumed Kubagram game went on with other AI moves."""
    ai, steps = RESUMED[game]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    players = ["--players", f"human,{ai}", "--seed", "5", "--no-board"]
    play([game, "play", *players, "--save", str(whole)], "h\n1\n" * 2 * steps + "q\n")
    first = play([game, "play", *players, "--save", str(part)], "h\n1\n" * steps + "q\n")
    assert f"go on with: kubasolve {game} play --resume {part} --seed 5" in first
    play([game, "play", "--resume", str(part), "--seed", "5", "--no-board", "--save", str(part)], "h\n1\n" * steps + "q\n")
    assert json.loads(part.read_text()) == json.loads(whole.read_text())


@pytest.mark.parametrize("command", [["kubagram", "play"], ["play", "--game", "kubagram"]])
def test_kubagram_play_redraws_the_field_after_a_step_of_a_turn(command: list[str]) -> None:
    """A Kubagram turn is several steps (take a cube, claim words, end the turn: docs/kubagram.md); play drew the
    field only when a turn began, so the cube just taken was not shown until the next turn. Each step that changes
    the drawing now shows it again (a refused step, which changes nothing, does not)."""
    takes = "t\n" + "".join(f"t {c}\n" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")  # exactly one take is allowed
    text = play([*command, "--players", "human,greedy", "--seed", "1"], takes + "q\n")
    assert text.count("human> ok") == 1
    before, after = text.split("human> ok", 1)
    fields = [line for line in text.splitlines() if line.startswith("field:")]
    assert len(fields) == 2 and fields[0] in before and fields[1] in after.split("bye")[0]
    assert len(fields[1].split()) == len(fields[0].split()) + 1  # the cube taken stands in the field drawn again
    assert after.count("field:") == 1  # the refused takes after it draw nothing
    board_less = play([*command, "--players", "human,greedy", "--seed", "1", "--no-board"], takes + "q\n")
    assert "field:" not in board_less
