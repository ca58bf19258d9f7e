"""Exact two-player crossword endgame search (bag empty, both racks known), all in one compiled loop.

The value of a position is the spread still to come for the player to move (their points minus the
opponent's until the game ends, rack adjustments included): a placement that empties the mover's rack
ends the game with ``score + 2 x opponent's rack``; a pass is a scoreless turn and the
``limit``-th in a row ends the game with each player losing their own rack (``limit = 0``: two passes
in a row end it); any placement resets the count.

Search: negamax alpha-beta (fail-soft, principal variation search) with iterative deepening on plies,
as an explicit-stack state machine (no recursion: the compiled code caches, and the search can stop
after any node and resume, which is how the caller applies a time budget). One frame per ply (row of
``fr``). Per node:

1. **Transposition table** (flat arrays, 2-slot buckets: one depth-preferred (entries without a horizon
   first, then by depth searched, also in the iteration to the end of the game), one always replaced),
   keyed on the board's Zobrist key, both racks (each by its role: to move / waiting) and the
   scoreless count; an entry holds a bound, the depth searched, whether its subtree met the depth
   horizon (``hit``; an entry without it is the game's value whatever the depth) and the best move.
   A node that goes on to list its placements asks for its pass child's two buckets (its entry and its placements',
   ``PLACE_KEY``) at once (:func:`_prefetch_row`): the pass is searched last, and a placement's child bucket is probed
   before the move anyway (item 4) (positions 19 and 26 to 800,000 nodes, one thread, 24 alternating rounds on a noisy
   host: 7 % less CPU in all, 17 rounds faster, one series of six 1 % slower; a gain of a few per cent at most, not
   shown beyond the host's drift; the same nodes; docs/crossword_endgame_log.md).
2. **Moves** from the move generator's own walk (:mod:`kubasolve.kernels.board_movegen`), *one line
   at a time*, cached per (line contents, rack): a placement changes a handful of the 30 lines, so the
   siblings of a node and the positions the search meets again reuse the other lines' moves. The
   line key is a Zobrist-like hash of the line's tiles and of the cross-sets of its empty squares,
   kept up to date incrementally: a placement recomputes only the cross-sets of the squares at the
   ends of the runs it extends (``cross_set_of``), and undoes them from a log. A node first asks for the cache slots of
   the lines its ply's previous node did not leave in place (:func:`_prefetch_row`), so their memory misses overlap
   instead of coming one after another (positions 26, 19, 29, 6, 32 and 30 of the measured set on one thread, three
   alternating rounds: 27.0-27.6 s of CPU against 27.9-28.5 s, the same nodes).
3. **Terminal options first**: going out (``score + 2 x opponent's rack``) and a pass that ends the
   game are exact; when one reaches ``beta`` the node is cut without a horizon. So is a pass right
   after the opponent's *forced* pass (they had no placement on this board: ``OPT_STUCK_PASS``): from
   there on, as long as nobody places a tile, the opponent can only pass, and every time the mover is
   to move again the board and racks are the same, so are its placements and their values; the
   mover's pass is then worth ``max(best placement, opponent's rack - own rack)`` (the passes end the
   game), and the placements are searched at this node anyway: the pass counts as the static
   ``opponent's rack - own rack`` and is not searched. This is the stuck-tile case (a Q nobody can
   place): the stuck player's turns are forced passes, and searching the other player's passes
   there was about a third of the nodes (position 6 of the measured set: 25.4M nodes to prove
   before, 17.3M after; the same value).
4. **Table before the move** (``OPT_PROBE_FIRST``): before a placement is made, the child's key is computed
   from the move (board key, the mover's rack key without the tiles) and the table probed; when its entry
   settles the child (the cut-off it would take on entering), the child's value is taken from it without
   making the move (no board, cross-set or line-key update, no undo): about half the nodes are such table
   cut-offs. They still count as nodes, so the node counts are those of the search without it (position
   6: 17.3M nodes to prove either way, 12.1 s of CPU instead of 15.6 s in the same run).
5. **Ordering**: the table's move, then by gain (score + value of the tiles played: shedding heavy
   tiles first), by selection for the first ``SELECT_FIRST`` (a cut-off usually comes early), then the
   rest sorted at once (selection over a whole list was quadratic at the nodes that search every move),
   but a three-tile mover's rest is left in list order (its leave bounds cut nearly all of it, and the
   largest of the bounds does not depend on the order) and a four-tile mover's is only split, its two-tile
   placements first (item 9); at the root by the values of the previous iteration. The pass last.
6. **Horizon**: at depth 0 the rack difference (opponent's rack value - mover's); at depth 1 every
   move valued at once (going out exact, others ``gain - own rack + opponent's rack``: the score and
   then each player paying their rack); at depth 2 a move whose ``gain - own + opponent's rack``
   cannot beat alpha is skipped (the opponent could pass at the horizon), and so are the moves
   after it (they come in decreasing gain).
7. **One tile left** (``OPT_LAST_TILE``): every placement of a one-tile rack goes out (exact, no child),
   so no move list is made: the best going-out score comes from the lines' summaries (as at the
   horizon), then only the pass is searched. And a forced pass to an opponent holding one tile is
   valued at the passing node: that child's own pass follows a forced one (item 3) and its placements
   all go out, so its value is ``max(best going out + 2 x rack, rack difference)`` at once, from its
   lines' summaries, without entering it or keeping a table entry for it (it still counts as a node;
   the principal variation read from the table stops before such a last tile).
   The stuck-tile endgames end this way: the Q holder passes, the other plays out tile by tile (in
   position 6 of the measured set, 5.6M of its 16.7M nodes were such one-tile positions and the forced
   passes before them).
8. **Lean table** (``OPT_LEAN_TABLE``): the placements' own entry (``PLACE_KEY``) is looked up only
   when a pass led to the node (after a placement the node's own entry, probed just before, holds about
   as much), and not kept where the mover has no placement or one tile (recomputed as cheaply as probed):
   one random memory access fewer per node.
9. **True bounds** (the game value, not a horizon estimate; a cut on them is exact, without horizon). The
   opponent may always pass, so a node's value is at most its value were the opponent to pass at every turn
   (the one-player problem: the mover's best sequence of plays, then going out, ``+ 2 x opponent's rack``, or
   stopping, ``opponent's rack - own rack``). ``OPT_LAST_OUT``: a one-tile mover that can go out gets at most
   ``best going out + 2 x rack`` that way, which going out achieves: that is the value, the pass is not
   searched (with no placement: at most the rack difference, a fail-low when that cannot beat alpha).
   ``OPT_PAIR_BOUND``: a two-tile mover (tiles ``a``, ``b``) gets at most the larger of stopping, going out
   now (``out2``, the best two-tile play) and one tile then the other or stopping, where a one-tile play
   ``m2`` after ``m1`` is either on another square in no run through ``m1``'s (a play of the board now: at
   most ``B1`` of its tile, the best one-tile score now, on two squares) or together with ``m1`` a two-tile
   play ``P`` of the board now whose words hold ``m2``'s (``score(m2) <= score(P)``, and ``m1`` is a one-tile
   play now on a square of ``P``): ``max(B1(a) + B1(b), max over P of score(P) + one-tile score on its square)
   + 2 x rack``, and stopping after one tile (:func:`_pair_bound`). When that bound cannot beat alpha the node
   fails low at once; when the exact options reach it, it is the value.
   ``OPT_PASS_BOUND``: a forced pass to an opponent holding two tiles: that child's bound and exact options
   (going out; its pass after the forced one, item 3) are computed at the passing node, and when they settle the
   child it is not entered (no table entry; it counts as a node).
   ``OPT_OPP_OUT``: when the opponent holds at most ``OPP_OUT_TILES`` tiles and can go out, its going-out plays
   are listed at the node and the best ``N_OPP_OUTS`` kept; a move after which none of such a play's squares
   gets a tile of the move nor has one in a run through it (either direction) leaves that play as it is (same
   words, same score), so the move is worth at most
   ``score - (that play + 2 x the mover's rack after the move)``; a move whose bound cannot beat alpha is
   not made (it counts as its bound, fail-soft, and as no node). The stuck-Q endgames and the last turns of
   the others: position 29 of the measured set proved in 2.8M nodes instead of 16.7M, position 6 in 6.7M
   instead of 16.5M, 32 (unproven in 10 s before) in 9.0M (the same values). Tried and left out: the same
   bound for three tiles after the opponent's forced pass, each move made and the two-tile bound taken on the
   board after it (position 19: 16 % fewer nodes, 7-20 % more CPU).
   ``OPT_LEAVE_ONE``: a placement that leaves the mover one tile ``t`` is worth at most
   ``score + max(vo - value(t), best one-tile play of t on the board after it + 2 vo)`` (the one-player bound after
   it: the opponent may pass); that best is the node's best one-tile score of ``t`` (a square none of whose runs
   holds a tile of the move has the same plays) or a play on a square at an end of a run through one of the move's
   tiles, whose cross-set is recomputed with the move's tiles on the board for a moment (no move made, no line
   generated). A move whose bound cannot beat alpha is not made (it counts as its bound, as ``OPT_OPP_OUT``). The
   node's data (each tile's best one-tile score) is kept before its first move is searched (until December 2026 only
   once a move had been searched without a cut: the first move of every fail-low node was searched, 12-15 % more nodes).
   ``OPT_LEAVE_TWO`` (a three-tile mover's one-tile placement ``x1``, leaving ``u``, ``v``): the two-tile bound on
   the board after it, each term bounded from the board now: a one-tile play after it is one of the board now or on
   a square at an end of a run through ``x1`` (exact, as above); a two-tile play after it whose words do not hold
   ``x1`` is one of the board now (the node's best for ``u``, ``v``, and its best one-tile play then a two-tile play
   through its square), one whose main word holds ``x1`` makes with it a three-tile play of the board now (at most
   the best such play holding ``x1``'s tile there), and one whose cross word holds ``x1`` has a tile on such a run
   end ``y`` and the other at an end of ``y``'s run along the other line: scored as if its main word were a word
   (``y``'s and the other tile's cross-sets checked). Measured: 2.4-2.6x fewer nodes on positions 6 and 19, the
   same CPU on one thread (its cost per move about what the cut children cost); in the default options since
   December 2026 (on two threads the long endgames prove up to 13 % sooner with it).
   ``OPT_LEAVE_TWO_FOUR`` (a four-tile mover's two-tile placement ``m``, leaving ``u``, ``v``): the same two-tile bound after
   it from the board now. A one-tile play after ``m`` is one of the board now or on a square ``y`` at an end of a run
   through a new tile (exact); a two-tile play whose words hold no new tile is one of the board now; one whose main word
   holds them along ``m``'s line makes with ``m`` a four-tile play of the board now (at most the least, over ``m``'s tiles,
   of the best four-tile play holding that tile there); one whose main word crosses ``m``'s line holds one new tile and
   has its tiles at the ends of that tile's run across (``y``, then ``z`` at an end of the run through ``y``); one whose
   cross word holds a new tile has a tile on such a ``y`` and the other at an end of ``y``'s run along the play (a
   parallel play: ``z``'s cross-set recomputed when its run holds the other new tile). Those are scored as if their main
   word were a word. In the stuck-Q endgames it cuts the four-tile mover's two-tile moves before the opponent's forced
   pass is entered (position 26 of the measured set: 1.09M such passes to 83k, 5.56M nodes to 3.04M).
   Both leave-two bounds take the cross-sets of their run-end squares from a per-thread memo keyed on the line's key,
   the move's tiles and the square (:func:`_memo_cross_set`): the siblings of a node bound the same plays on the same
   lines (92-96 % of the 17M-69M lookups hit on positions 2, 19, 26; 5-10 % less CPU on the long endgames, the same
   node counts).
   ``OPT_LEAVE_MEMO``: a leave-two bound is the move's score plus a true bound of the position after it, whatever move
   led there; one that cut is kept by that position's table key (``lmemo``, shared by the threads), and a move to the same position
   later takes it instead of computing its own: two one-tile plays that do not touch reach one position in either order
   (the three-tile movers after a four-tile mover's one-tile moves, where most of the long proofs' work is), and a
   four-tile mover's two-tile play reaches the position of its tiles played one at a time. Position 25 of the measured
   set: 6.2M of its 24.2M leave cuts from the memo, 1-3 % fewer nodes; on positions 2, 19, 25 on one thread 2-9 % less
   CPU for the three-tile movers' cuts, 4-8 % less again with the four-tile bound's. Its lookups are memory misses (9 % of
   the CPU on position 25, the one hot instruction of the search loop); once a node's list is sorted, the next move's slot
   is asked for ahead (:func:`_prefetch_row`) while this move's bound is worked out: about 6 % less CPU, the same nodes;
   for a four-tile mover's one-tile move (no leave bound) the next child's table bucket, which item 4 probes first
   (about 6 % less again).
   ``OPT_LEAVE_INHERIT``: non-touching plays commute (either order is legal, with the same scores and the same board
   after both), so below a four-tile mover's one-tile move ``x1`` and the opponent's pass, a three-tile mover's two-tile
   placement ``m`` whose words (main word, runs across its tiles) do not hold ``x1``'s square is worth at most what
   ``m, x1, ...`` is from the four-tile node, which that node's leave-two bound on ``m`` covers (``m`` is a placement
   there with the same score): when every two-tile placement of the four-tile node was cut by that bound (or its memo),
   their largest bound less ``x1``'s score bounds ``m`` (a cut when at most alpha) without ``m``'s own leave-one bound.
   The four-tile node puts its two-tile placements before its one-tile ones so they are cut before the one-tile moves
   are searched. Position 25 of the measured set: 3.18M of its 8.3M leave-one bounds inherited (the rest mostly below an
   opponent's placement instead of a pass, where the board is not the four-tile node's); about 6 % less CPU.

10. **Threads** (lazy SMP, as Macondo's endgame; the caller runs ``search`` on several threads, each with its own
   buffers and line cache, all on one table; the kernel holds no GIL): a table slot holds ``key ^ word`` and
   ``word``, so an entry being rewritten by another thread reads as no entry (Hyatt's lockless hashing), never as a
   wrong one. Every entry of the iteration to the end of the game is a true bound of the game value whoever stored
   it. A helper (``OPT_HELPER``) takes a node's remaining moves in the reverse order once its first moves gave no
   cut-off (a fail-low node: all its moves are searched, so the two threads meet in the middle of its list, each
   taking the other's results from the table), and at the root the moves after the first from the worst by the
   ordering key. Measured (two threads on two cores): position 26 of the measured set 31.5 s alone, 19.1 s with
   the fail-low reversal, 13.3 s with the root's too; the main thread then searches half the nodes it searched
   alone, the helper about as many (little duplicated work). The fail-low reversal is only for movers of at most
   ``HELPER_REVERSE_TILES`` tiles: a larger rack's node with no cut-off among its first picks often has one further
   down its long list, which the reversal puts last (the helper's order alone, on one thread: position 0 of the set
   39.6M nodes, 23 over 600k; with the limit 8.7M and 88k, the main thread's order 4.8M and 83k).
   And a helper's root takes the main thread's root alpha of the same iteration, copied between the helper's
   slices (``sc[SC_SHARED_ALPHA]``, ``sc[SC_SHARED_DEPTH]``): its refutations of the root moves after the first are
   then searched against the value the main thread has found, not its own lower one. Every entry it stores below the
   root is a true bound whatever the window; its root's best move may only tie that alpha as a bound, so such a root
   stores no entry and gives no answer (the helper goes on to the next iteration, or searches the last one again).
   Position 0 of the measured set, whose root value rises from 69 to 95 over 120 of its 297 moves: 7.6-8.4 s on
   two threads instead of 10.6-12.3 s.

An iteration whose tree never met the horizon (``hit`` false at the root) has the exact value: the
search is *proven* and stops. With ``sc[SC_JUMP] = J`` (the solver's default 5) the iterations after
depth ``J`` are replaced by one without a horizon (to the end of the game): the shallow iterations order
the moves and fill the table, and the deep ones would mostly repeat work (measured: fewer nodes to
prove on the long endgames).

Between solves the table is not cleared: each solve salts its keys (``sc[SC_SALT]``) and tags its
entries with a 5-bit generation; a slot of another generation counts as free. A node's move list holds
rows of the line cache's arena (not copies of the tiles); when the cache is refilled mid-search, a list
made before is listed again (the same order, so the same indices) before one of its moves is played.

Counters (``sc``): nodes (positions entered, as the old search counted them), leaves valued at the
depth-1 horizon, line generations, line-cache hits, table cut-offs, beta cut-offs by the first move
searched / a later one / the pass / an exact option on entry, the nodes that searched every move (with
their children), and the table cut-offs taken before the move was made.

Caveat of numba's cache: a compiled kernel is not invalidated when a function it calls from another
module changes (here ``board_movegen``'s walk); clear the numba cache after editing that module.

Caveat of measurements: the line cache outlives a solve (its keys are exact), so solving a position again in the same
thread costs 15-20 % less CPU (position 19: 7.65 s, then 6.41 and 6.65 s, the same nodes); compare settings on CPU with
each solve in a fresh process (or in both orders), node counts any way.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

from kubasolve.kernels.board_movegen import (
    C_BEST,
    C_BINGO,
    C_CAP,
    C_COUNT,
    C_MODE,
    C_NL,
    C_NRACK,
    C_OTHER_I,
    C_OUT_I,
    C_RACKSIZE,
    MODE_ALL,
    _fill_line,
    _line_anchors,
    _walk_anchors,
    cross_set_of,
)

INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2
PASS = -1
NO_MOVE = -2

# slots of the search context ``sc``
(SC_NODES, SC_STOP, SC_STATUS, SC_PLY, SC_ACT, SC_DEPTH, SC_MAX_DEPTH, SC_DONE_DEPTH, SC_VALUE, SC_BEST, SC_PROVEN,
 SC_LIMIT, SC_NL, SC_RACK_SIZE, SC_BINGO, SC_ROOT_MOVER, SC_ROOT_SL, SC_RET_V, SC_RET_H, SC_ARENA, SC_CACHE_USED,
 SC_FILTER, SC_UNDO, SC_LINE_GENS, SC_ASSEMBLIES, SC_LEAVES, SC_TT_CUTS, SC_CACHE_HITS, SC_ROOT_N, SC_ERROR,
 SC_ROOT_PASS_KEY, SC_CACHE_CLEARS, SC_RESULT, SC_MODE, SC_LIST_TT, SC_LIST_OUT, SC_OPTS, SC_PASSES, SC_F_OUT_SCORE,
 SC_F_OUT_I, SC_F_GAIN, SC_F_GAIN_I, SC_TILES, SC_CENTRE, SC_JUMP, SC_PLY_MAX, SC_WIN_LO, SC_WIN_HI, SC_RESEARCHES, SC_GEN, SC_SALT,
 SC_CUT_FIRST, SC_CUT_LATER, SC_CUT_PASS, SC_ALL_NODES, SC_ALL_CHILDREN, SC_CUT_EXACT, SC_PROBE_CUTS, SC_BOUND_CUTS, SC_OPP_CUTS, SC_STAMP,
 SC_LEAVE_CUTS, SC_LEAVE_MEMO_HITS, SC_INHERIT_CUTS, SC_SHARED_ALPHA, SC_SHARED_DEPTH, SC_BORROWED, SC_BORROWS) = range(68)
SC_SIZE = 68
OPT_FORCED_PASS_FREE = 1
OPT_PLACE_TABLE = 2
OPT_ASPIRATION = 4
OPT_STUCK_PASS = 8
OPT_PROBE_FIRST = 16
OPT_LAST_TILE = 32
OPT_LEAN_TABLE = 64
OPT_PAIR_BOUND = 128
OPT_LAST_OUT = 256
OPT_OPP_OUT = 512
OPT_PASS_BOUND = 1 << 11
OPT_LEAVE_ONE = 1 << 12
OPT_LEAVE_TWO = 1 << 13
OPT_HELPER = 1 << 14
"""A helper thread of a shared-table search (``threads`` > 1, lazy SMP): once a node's first moves gave no cut-off,
its other moves are searched in the reverse order, and at the root the moves after the first from the worst by the
ordering key (the main thread's fail-low nodes and root refutations are shared out)."""
HELPER_REVERSE_TILES = 4
"""A helper reverses a fail-low node's remaining moves only where the mover holds at most this many tiles: with more,
a node with no cut-off among its first picks often has one further down, and the reversal searches it last (position 0
of the measured set: the helper's order alone, one thread, 39.6M nodes without the limit, 8.7M with it, the main
thread's order 4.8M; on two threads positions 0, 2, 25, 26, 19, 6, 32 and 29 took 8 % less wall time in all, two
alternating rounds, 0 in 11.1-11.4 s against 12.9-14.5 s)."""
OPT_LEAVE_TWO_FOUR = 1 << 15
"""The leave-two bound for a four-tile mover's two-tile placements (:func:`_leave_two_four_bound`)."""
OPT_LEAVE_MEMO = 1 << 16
"""The two leave-two bounds' cuts kept by the position after the move (``lmemo``, :data:`LEAVE_MEMO_BITS`): two one-tile
plays that do not touch reach the same position in either order, and so do a two-tile play and its tiles played one at
a time, so a move is cut from the bound found another way without computing it again."""
OPT_LEAVE_INHERIT = 1 << 17
"""A three-tile mover's two-tile placement ``m`` after its own one-tile move ``x1`` and the opponent's pass, where ``m``'s
words do not hold ``x1``'s square: cut from the four-tile node's bounds when every two-tile placement there was cut by
``OPT_LEAVE_TWO_FOUR`` (``x1, m, ...`` scores what ``m, x1, ...`` does, and that bound covers it; see the module
docstring), without its own leave-one bound. The four-tile node's two-tile placements come first in its sorted order."""
LEAVE_MEMO_BITS = 20
"""Slots of the leave memo (direct-mapped, shared by the search threads, kept between solves as the table is: its keys are
the table's, salted by the solve): the table key of a position a leave-two bound cut the move to, and that true bound of
its value without the move's score, stored as the table's entries are (``key ^ value``, ``value``: an entry being rewritten
by another thread reads as no entry). 2^20 slots instead of 2^14: position 25 of the measured set 8.99M memo cuts against
6.2M, 3-13 % less CPU on positions 2, 19, 25 (one thread, two alternating rounds)."""
OPT_PAUSE_ITER = 1 << 10
"""Pause (status paused, the board back at the root, the next iteration not started) after each completed
iteration that does not end the search: the caller reads the iteration's best move (progress reports)."""
ASPIRATION = 16
"""Half-width of the root window of the iteration to the end of the game (around the last iteration's value)."""
PLACE_KEY = 127
"""``zs[PLACE_KEY]`` marks the table entries of the placements alone (the best placement does not depend on the
scoreless count: after a placement it is 0): a position met again after passes searches only its pass."""
MODE_SEARCH, MODE_LIST = 0, 1
# values of sc[SC_STATUS]
ST_RUNNING, ST_PAUSED, ST_DONE, ST_ERROR = 0, 1, 2, 3
# errors (sc[SC_ERROR])
ERR_MOVE_BUFFER, ERR_ARENA, ERR_PLIES, ERR_UNDO = 1, 2, 3, 4
# the state machine's next action (sc[SC_ACT])
ACT_ITER, ACT_ENTER, ACT_NEXT, ACT_RETURN = 0, 1, 2, 3

# frame columns
(F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_BESTMV, F_DEPTH, F_HIT, F_SL, F_KEY, F_MBASE, F_MN, F_NPICK, F_CUR, F_PHASE,
 F_SCORE, F_UNDO, F_MOVER, F_NFIXED, F_PASSDONE, F_NORD, F_NSEARCHED, F_PBEST, F_PMV, F_PHIT, F_PALPHA0, F_PLACEDONE,
 F_FORCED, F_ITER_NODES, F_EPOCH, F_SORTED, F_LEAVE, F_ON, F_OC) = range(33)
N_OPP_OUTS = 4
"""The opponent's going-out plays kept at a node for ``OPT_OPP_OUT`` (:func:`_opp_outs`): their count in column
``F_ON``, then per play ``1 + OPP_OUT_TILES`` columns from ``F_OC``: its score and squares (-1: none)."""
OPP_OUT_TILES = 3
"""The most tiles an opponent may hold for ``OPT_OPP_OUT``."""
F_B1N = F_OC + N_OPP_OUTS * (1 + OPP_OUT_TILES)
"""For ``OPT_LEAVE_ONE``: the count of the mover's distinct tiles (-1: not kept), then from ``F_B1`` per tile its rack slot
and its best one-tile score on the node's board (-INF: none)."""
F_B1 = F_B1N + 1
F_P2 = F_B1 + 2 * 8
"""For ``OPT_LEAVE_TWO`` (a three-tile mover): per tile of ``F_B1`` (at most 3), for the other two tiles: their best two-tile
play and their best one-tile play then a two-tile play through its square (:func:`_keep_leave_two`)."""
F_P4 = F_P2 + 2 * 3
"""For ``OPT_LEAVE_TWO_FOUR`` (a four-tile mover): per pair of tiles of ``F_B1`` (indices ``i``, ``j``, at ``4 i + j`` and
``4 j + i``): their best two-tile play and their best one-tile play then a two-tile play through its square
(:func:`_keep_leave_two_four`)."""
F_RSUM = F_P4 + 2 * 16
"""For ``OPT_LEAVE_ONE``: the sum of the mover's rack slots (each tile's), so a move's one tile left is that sum less its
tiles' slots (:func:`_leave_one_bound`)."""
(F_TWO_OPEN, F_TWO_MAX, F_X1SQ, F_INH_Q, F_INH_V) = range(F_RSUM + 1, F_RSUM + 6)
"""For ``OPT_LEAVE_INHERIT``: at a four-tile node, its two-tile placements not yet cut by a leave bound (-1: not kept) and
the largest of those bounds, and the square of the one-tile move being searched (-1: none); at a three-tile node below
such a move and the opponent's pass, that square (-1: nothing inherited) and the bound its unrelated two-tile
placements inherit (the four-tile node's largest less the move's score)."""
F_SIZE = F_INH_V + 1
"""(``fr[d, F_ITER_NODES]``: the node count when iteration ``d`` completed: a column indexed by depth, not ply.)"""

# per-move auxiliary columns (``pm_aux`` / ``ar_aux``): gain (score + value of the tiles placed), tiles placed;
# ``pm_aux`` also the move's row in the arena (where its tiles are: a node's list holds no tiles) and, for a one-tile
# move of a three-tile mover (``OPT_LEAVE_TWO``), the best three-tile play with its tile on its square
A_GAIN, A_NTILES, A_SRC, A_INL = 0, 1, 2, 3

# columns of the rack state ``rs[player]``
R_N, R_VALUE, R_HASH_MOVE, R_HASH_WAIT = 0, 1, 2, 3

K1 = np.int64(-7046029254386353131)  # odd 64-bit constants (splitmix64 / murmur3 finaliser)
K2 = np.int64(-49064778989728563)
K3 = np.int64(-4265267296055464877)


@njit(cache=True, inline="always")
def _mix(x):
    """A 64-bit finaliser (murmur3's, with logical shifts written for signed integers)."""
    x = (x ^ ((x >> 33) & 0x7FFFFFFF)) * K2
    x = (x ^ ((x >> 33) & 0x7FFFFFFF)) * K3
    return x ^ ((x >> 33) & 0x7FFFFFFF)


@njit(cache=True, inline="always")
def _empty_hash(cell, d, m, s):
    """Hash of an empty square's cross-set ``m`` and cross-score ``s`` for direction ``d``."""
    return _mix(m * K1 + (s + 2) * K2 + (2 * cell + d + 1) * K3)


@njit(cache=True)
def line_hashes(letters, blank, xmask, xscore, lines, line_len, line_dir, zb, n_letters):
    """The key of every line: its tiles (``zb[cell, code (+ n_letters for a blank)]``) and the cross-set of
    each of its empty squares for the line's direction."""
    out = np.zeros(lines.shape[0], np.int64)
    for k in range(lines.shape[0]):
        d = line_dir[k]
        h = np.int64(0)
        for p in range(line_len[k]):
            cell = lines[k, p]
            if letters[cell] >= 0:
                h ^= zb[cell, letters[cell] + (n_letters if blank[cell] else 0)]
            else:
                h ^= _empty_hash(cell, d, xmask[cell, d], xscore[cell, d])
        out[k] = h
    return out


# ------------------------------------------------------------------------------------------------ tables
@njit(cache=True, inline="always")
def _tt_bucket(tt, key):
    """The first row of ``key``'s bucket (two rows) in the table."""
    return key & (tt.shape[0] - 2)


@njit(cache=True, inline="always")
def _tt_probe(tt, key):
    """The entry word of ``key`` in its bucket (two slots), or 0 (no entry: a stored word is never 0, its
    generation is not). A slot holds ``key ^ word`` and ``word`` (lockless, as in Hyatt's scheme): the word is read
    once and checked against the key, so a slot another thread is rewriting (``threads`` > 1: the helpers share the
    table) reads as no entry, never as another position's entry."""
    i = _tt_bucket(tt, key)
    w = tt[i, 1]
    if tt[i, 0] ^ w == key:
        return w
    w = tt[i + 1, 1]
    if tt[i + 1, 0] ^ w == key:
        return w
    return np.int64(0)


@njit(cache=True, inline="always")
def _tt_value(info):
    return (info << 32) >> 32


@njit(cache=True, inline="always")
def _tt_move(info):
    return ((info >> 32) & 0xFFFF) - 2


@njit(cache=True, inline="always")
def _tt_depth(info):
    return (info >> 48) & 0xFF


@njit(cache=True, inline="always")
def _tt_flag(info):
    return (info >> 56) & 3


@njit(cache=True, inline="always")
def _tt_hit(info):
    return (info >> 58) & 1


@njit(cache=True, inline="always")
def _tt_gen(info):
    return (info >> 59) & 31


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _tt_store(tt, key, depth, flag, value, mv, hit, gen):
    """Store in the bucket's slot holding ``key``, else in the depth-preferred slot when the new entry
    is worth at least as much or that slot is free, else in the always-replaced slot. Worth: an entry without
    horizon beats any with one; among the same kind the deeper search wins (in the iteration to the end of
    the game every entry is without horizon and its depth is what remains to the iteration's end, so the
    positions near the root, with the largest subtrees, keep their slots; when all such entries ranked
    alike, the leaves' entries evicted them: position 29 of the measured set took 24.1M nodes to prove, 16.7M
    with the ranking by depth, the same value). An entry is the key and one word: value (32 bits), move + 2 (16; a move past
    65533 is not kept), depth (8), flag (2), horizon met (1), generation (5). A slot of another
    generation (an earlier solve: its keys carry another salt, so never match) counts as free, so the
    table behaves as a cleared one without being cleared."""
    i = _tt_bucket(tt, key)
    old = tt[i, 1]
    if tt[i, 0] ^ old == key:
        s = i
    elif tt[i + 1, 0] ^ tt[i + 1, 1] == key:
        s = i + 1
    else:
        new_rank = min(depth, 255) if hit else 256 + min(depth, 255)
        old_rank = _tt_depth(old) if _tt_hit(old) else 256 + _tt_depth(old)
        free = old == 0 or _tt_gen(old) != gen
        s = i if (free or new_rank >= old_rank) else i + 1
    if mv > 65533:
        mv = NO_MOVE
    w = (value & 0xFFFFFFFF) | ((mv + 2) << 32) | (min(depth, 255) << 48) | (flag << 56) | (hit << 58) | (gen << 59)
    tt[s, 0] = key ^ w
    tt[s, 1] = w


@njit(cache=True, inline="always")
def _pass_ends(sl, limit):
    return sl + 1 >= limit if limit > 0 else sl >= 1


@intrinsic
def _prefetch_row(typingctx, arr, row):
    """Ask the processor to bring row ``row`` of the 2-D array ``arr`` into its caches (``llvm.prefetch``: a read, kept
    close); a hint, no effect on any value. (Numba has no prefetch of its own.)"""
    if not (isinstance(arr, types.Array) and arr.ndim == 2 and isinstance(row, types.Integer)):
        return None
    sig = types.void(arr, row)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [idx, context.get_constant(types.intp, 0)])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


# ------------------------------------------------------------------------------------------------ racks
@njit(cache=True, inline="always")
def _rack_take(player, slot, cnt, rs, val, zrm, zrw, nl):
    n = cnt[player, slot]
    rs[player, R_HASH_MOVE] ^= zrm[slot, n - 1]
    rs[player, R_HASH_WAIT] ^= zrw[slot, n - 1]
    cnt[player, slot] = n - 1
    rs[player, R_N] -= 1
    if slot < nl:
        rs[player, R_VALUE] -= val[slot]


@njit(cache=True, inline="always")
def _rack_give(player, slot, cnt, rs, val, zrm, zrw, nl):
    n = cnt[player, slot]
    rs[player, R_HASH_MOVE] ^= zrm[slot, n]
    rs[player, R_HASH_WAIT] ^= zrw[slot, n]
    cnt[player, slot] = n + 1
    rs[player, R_N] += 1
    if slot < nl:
        rs[player, R_VALUE] += val[slot]


# ------------------------------------------------------------------------------------------------ board
@njit(cache=True, inline="always")
def _two_slots(cnt, mover, nl):
    """The rack slots of a two-tile rack of ``mover`` (the same slot twice for a pair; -1 for a missing tile)."""
    slot_a = -1
    slot_b = -1
    for x in range(nl + 1):
        c = cnt[mover, x]
        if c >= 2:
            slot_a = x
            slot_b = x
        elif c == 1:
            if slot_a < 0:
                slot_a = x
            else:
                slot_b = x
    return slot_a, slot_b


@njit(cache=True, inline="always")
def _run_span(k, pos, letters, lines, line_len):
    """The first and last position of the run of tiles on line ``k`` through position ``pos`` (``pos`` itself counted)."""
    lo = pos
    while lo > 0 and letters[lines[k, lo - 1]] >= 0:
        lo -= 1
    hi = pos
    while hi + 1 < line_len[k] and letters[lines[k, hi + 1]] >= 0:
        hi += 1
    return lo, hi


@njit(cache=True, inline="always")
def _end_squares(k, q, st, en, dd, letters, lines, line_len, cell_line, cell_pos):
    """The empty squares at the two ends of a run that a move on line ``k`` (word ``st..en``, direction ``dd``) made or
    crossed, -1 at the board's edge, and the cross-set index of the words through them that changed: ``q < st`` the main
    word's ends, else those of the run across the line through the new tile at ``q``."""
    if q < st:
        a = np.int64(lines[k, st - 1]) if st > 0 else np.int64(-1)
        b = np.int64(lines[k, en + 1]) if en + 1 < line_len[k] else np.int64(-1)
        return a, b, np.int64(1 - dd)
    cell = lines[k, q]
    kk = cell_line[cell, 1 - dd]
    lo, hi = _run_span(kk, cell_pos[cell, 1 - dd], letters, lines, line_len)
    a = np.int64(lines[kk, lo - 1]) if lo > 0 else np.int64(-1)
    b = np.int64(lines[kk, hi + 1]) if hi + 1 < line_len[kk] else np.int64(-1)
    return a, b, np.int64(dd)


@njit(cache=True, inline="always")
def _fail_low(fr, p, v, j):
    """A move ``j`` of ply ``p`` not searched because a bound ``v`` showed it fails low: ``v`` still counts as what the
    node's best (and its placements' best) may be, so a fail-soft node returns a true upper bound."""
    if v > fr[p, F_BEST]:
        fr[p, F_BEST] = v
        fr[p, F_BESTMV] = j
    if v > fr[p, F_PBEST]:
        fr[p, F_PBEST] = v
        fr[p, F_PMV] = j


@njit(cache=True, inline="always")
def _two_tile_cut(fr, p, v):
    """A four-tile node's two-tile placement cut by its leave-two bound ``v`` (or the memo's): one fewer still open for
    ``OPT_LEAVE_INHERIT``, ``v`` in their largest (nothing when the node does not keep them)."""
    if fr[p, F_TWO_OPEN] > 0:
        fr[p, F_TWO_OPEN] -= 1
        fr[p, F_TWO_MAX] = max(fr[p, F_TWO_MAX], v)


@njit(cache=True, inline="always")
def _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines):
    """The tile (arena code) and the square of one-tile placement ``jg``."""
    src = pm_aux[jg, A_SRC]
    k = pm_meta[jg, 0]
    for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
        if ar_tiles[src, q] >= 0:
            return np.int64(ar_tiles[src, q]), np.int64(lines[k, q])
    return np.int64(-1), np.int64(-1)


@njit(cache=True, inline="always")
def _move_span(jg, pm_meta, pm_aux, line_dir):
    """Move ``jg``'s line, first and last square index on it, the line's direction and the arena row of its tiles."""
    k = np.int64(pm_meta[jg, 0])
    return k, np.int64(pm_meta[jg, 1]), np.int64(pm_meta[jg, 2]), np.int64(line_dir[k]), pm_aux[jg, A_SRC]


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _update_cross(cell, d, p1, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, g, nl, letter_filter,
                  lh, undo, sc):
    """Recompute the cross-set of empty ``cell`` for direction ``d`` (logged for undo; the key of its
    direction-``d`` line in ``lh[p1]`` follows)."""
    m, s = cross_set_of(cell, d, letters, vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter)
    om = xmask[cell, d]
    os_ = xscore[cell, d]
    if m == om and s == os_:
        return
    u = sc[SC_UNDO]
    undo[u, 0] = 1
    undo[u, 1] = cell
    undo[u, 2] = d
    undo[u, 3] = om
    undo[u, 4] = os_
    sc[SC_UNDO] = u + 1
    k = cell_line[cell, d]
    lh[p1, k] ^= _empty_hash(cell, d, om, os_) ^ _empty_hash(cell, d, m, s)
    xmask[cell, d] = m
    xscore[cell, d] = s


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _make(p, jg, mover, pm_meta, pm_aux, ar_tiles, letters, blank, vob, xmask, xscore, lines, line_len, line_dir, cell_line,
          cell_pos, g, val, zb, lh, bkey, undo, cnt, rs, zrm, zrw, sc):
    """Play move ``jg`` of the move buffer (its tiles in the arena) for ``mover`` at ply ``p``: the board,
    the mover's rack, the cross-sets next to the new tiles (all logged from ``sc[SC_UNDO]``), and ply
    ``p + 1``'s line keys and board key."""
    nl = sc[SC_NL]
    letter_filter = sc[SC_FILTER]
    p1 = p + 1
    for line in range(lh.shape[1]):
        lh[p1, line] = lh[p, line]
    key = bkey[p]
    k, st, en, dd, src = _move_span(jg, pm_meta, pm_aux, line_dir)
    for q in range(st, en + 1):
        t = ar_tiles[src, q]
        if t < 0:
            continue
        cell = lines[k, q]
        code = t & 63
        isb = (t & 64) != 0
        zi = code + (nl if isb else 0)
        for d in range(2):
            lh[p1, cell_line[cell, d]] ^= _empty_hash(cell, d, xmask[cell, d], xscore[cell, d]) ^ zb[cell, zi]
        letters[cell] = code
        blank[cell] = isb
        vob[cell] = 0 if isb else val[code]
        key ^= zb[cell, zi]
        u = sc[SC_UNDO]
        undo[u, 0] = 0
        undo[u, 1] = cell
        undo[u, 2] = t
        sc[SC_UNDO] = u + 1
        sc[SC_TILES] += 1
        _rack_take(mover, nl if isb else code, cnt, rs, val, zrm, zrw, nl)
    bkey[p1] = key
    # the squares at the ends of the main word and of the run across through each new tile: their cross words changed
    for q in range(st - 1, en + 1):
        if q >= st and ar_tiles[src, q] < 0:
            continue
        a, b, dn = _end_squares(k, q, st, en, dd, letters, lines, line_len, cell_line, cell_pos)
        for cell in (a, b):
            if cell >= 0:
                _update_cross(cell, dn, p1, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, g, nl, letter_filter, lh,
                              undo, sc)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _unmake(mover, undo_to, letters, blank, vob, xmask, xscore, val, undo, cnt, rs, zrm, zrw, sc):
    """Take back the last move of ``mover``: the log down to ``undo_to`` (cross-sets, tiles; the tiles go
    back to the rack)."""
    nl = sc[SC_NL]
    u = sc[SC_UNDO]
    while u > undo_to:
        u -= 1
        cell = undo[u, 1]
        if undo[u, 0] == 1:
            xmask[cell, undo[u, 2]] = undo[u, 3]
            xscore[cell, undo[u, 2]] = undo[u, 4]
        else:
            letters[cell] = -1
            blank[cell] = False
            vob[cell] = 0
            sc[SC_TILES] -= 1
            t = undo[u, 2]
            _rack_give(mover, nl if (t & 64) else (t & 63), cnt, rs, val, zrm, zrw, nl)
    sc[SC_UNDO] = u


# ------------------------------------------------------------------------------------------------ moves
@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _gen_line(k, mover, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult, val, cnt, rs,
              ar_meta, ar_tiles, ar_aux, ci, slot, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub,
              d_ab, d_rvals, d_scratch, sc):
    """Generate the placements of ``mover``'s rack on line ``k`` into the arena from ``sc[SC_ARENA]``;
    the number written, or -1 when the arena is full. ``ci[slot, 3]`` gets the line's summary (best score
    of a move that empties the rack, its index in the line's list, best gain of the others, its index)."""
    nl = sc[SC_NL]
    lin = lin_all[k]
    _fill_line(k, lines, line_len, line_dir, letters, vob, xmask, xscore, lmult, wmult, all_anchor, lin)
    centre = sc[SC_CENTRE]
    empty = sc[SC_TILES] == 0
    if empty and cell_line[centre, line_dir[k]] != k:
        n_work = np.int64(0)  # an empty board: only the lines through the centre square have moves
    else:
        n_work = _line_anchors(k, lin, line_len[k], empty, cell_pos[centre, line_dir[k]], work, 0)
    ci[slot, 3] = 0
    if n_work == 0:
        return 0
    mask = np.int64(0)
    for x in range(nl):
        rackbuf[x] = cnt[mover, x]
        if rackbuf[x] > 0:
            mask |= np.int64(1) << x
    rackbuf[nl] = cnt[mover, nl]
    rackbuf[nl + 1] = mask
    start = sc[SC_ARENA]
    mctx[C_MODE] = MODE_ALL
    mctx[C_COUNT] = start
    mctx[C_CAP] = ar_meta.shape[0]
    mctx[C_BEST] = -1
    mctx[C_RACKSIZE] = sc[SC_RACK_SIZE]
    mctx[C_BINGO] = sc[SC_BINGO]
    mctx[C_NL] = nl
    mctx[C_NRACK] = rs[mover, R_N]
    mctx[C_OUT_I] = -1
    mctx[C_OTHER_I] = -1
    _walk_anchors(arange_, n_work, work, d_ub, d_ab, lin_all, line_dir, line_len, g, rackbuf, word, mctx, val, bound,
                  ar_meta, ar_tiles, mframes, np.int64(0), d_rvals, d_scratch)
    end = mctx[C_COUNT]
    if end > ar_meta.shape[0]:
        return -1
    n_rack = rs[mover, R_N]
    os_ = np.int64(0)
    oi = np.int64(-1)
    gs = np.int64(0)
    gi = np.int64(-1)
    for i in range(start, end):
        score = ar_meta[i, 3]
        gain = score
        nt = 0
        for q in range(ar_meta[i, 1], ar_meta[i, 2] + 1):
            t = ar_tiles[i, q]
            if t >= 0:
                nt += 1
                if t < 64:
                    gain += val[t]
        ar_aux[i, A_GAIN] = gain
        ar_aux[i, A_NTILES] = nt
        if nt == n_rack:
            if oi < 0 or score > os_:
                os_ = score
                oi = i - start
        elif gi < 0 or gain > gs:
            gs = gain
            gi = i - start
    # the line's summary, 16 bits each (+1): best going-out score, its index, best other gain, its index
    ci[slot, 3] = (os_ + 1) | ((oi + 1) << 16) | ((gs + 1) << 32) | ((gi + 1) << 48)
    sc[SC_ARENA] = end
    sc[SC_LINE_GENS] += 1
    return end - start


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _collect(p, mover, base, copy, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult, val,
             cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux, all_anchor, lin_all, work, word, mctx, bound,
             mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc):
    """:func:`_collect_once`, again when the line cache had to be refilled while a list was being copied (the
    lines taken before then point into the arena that was started again)."""
    for _ in range(3):
        clears = sc[SC_CACHE_CLEARS]
        n = _collect_once(p, mover, base, copy, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult,
                          wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux, all_anchor, lin_all,
                          work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc)
        if n < 0 or not copy or sc[SC_CACHE_CLEARS] == clears:
            return n
    sc[SC_ERROR] = ERR_ARENA
    return -1


@njit(cache=True, inline="always")
def _line_cache_key(line_hash, rack_hash, line_salt, empty):
    """The line cache's key of a line (its contents' hash ``line_hash``) for a rack (never 0: 0 marks a free slot)."""
    ck = line_hash ^ rack_hash ^ line_salt
    if empty:
        ck = _mix(ck + 1)  # an empty board's lines list other moves than the same lines elsewhere
    return ck if ck != 0 else np.int64(1)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _collect_once(p, mover, base, copy, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult,
                  val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux, all_anchor, lin_all, work, word, mctx,
                  bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc):
    """The placements of ``mover``'s rack at ply ``p``, line by line (line order, each line as the move
    generator lists it: the generator's own list), each line's from the cache when it holds (line key,
    rack), else generated. ``copy``: into the move buffer from ``base``; else only the facts a node one
    ply above the horizon needs, from the lines' summaries, into ``sc[SC_F_OUT_SCORE:SC_F_GAIN_I + 1]``
    (best going-out score and its index, best other gain and its index; -1 indices: none). Returns the
    count, or -1 (``sc[SC_ERROR]`` says why)."""
    if copy:
        sc[SC_ASSEMBLIES] += 1
    cap = pm_meta.shape[0]
    slots = ci.shape[0]
    smask = slots - 1
    rack_hash = rs[mover, R_HASH_MOVE]
    os_ = np.int64(0)
    oi = np.int64(-1)
    gs = np.int64(0)
    gi = np.int64(-1)
    n = np.int64(0)
    empty = sc[SC_TILES] == 0
    for k in range(lines.shape[0]):
        # the slots of the lines the sibling's slot does not hold, asked for ahead (each a memory miss): their misses overlap
        ck = _line_cache_key(lh[p, k], rack_hash, zline[k], empty)
        if ci[lslot[p, k], 0] != ck:
            _prefetch_row(ci, ck & smask)  # type: ignore[call-arg]
    for k in range(lines.shape[0]):
        ck = _line_cache_key(lh[p, k], rack_hash, zline[k], empty)
        i = lslot[p, k]
        if ci[i, 0] == ck:
            sc[SC_CACHE_HITS] += 1  # the slot this ply's previous node used (a sibling: most lines are the same)
        else:
            i = ck & smask
            found = False
            while ci[i, 0] != 0:
                if ci[i, 0] == ck:
                    found = True
                    break
                i = (i + 1) & smask
            if found:
                sc[SC_CACHE_HITS] += 1
            else:
                if 2 * (sc[SC_CACHE_USED] + 1) > slots:
                    _clear_cache(ci, sc)
                    i = ck & smask
                off = sc[SC_ARENA]
                c = _gen_line(k, mover, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult,
                              val, cnt, rs, ar_meta, ar_tiles, ar_aux, ci, i, all_anchor, lin_all, work, word, mctx, bound, mframes,
                              rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc)
                if c < 0:
                    # the arena is full: start it again (the lines already taken are in the move buffer)
                    _clear_cache(ci, sc)
                    i = ck & smask
                    off = 0
                    c = _gen_line(k, mover, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult,
                                  wmult, val, cnt, rs, ar_meta, ar_tiles, ar_aux, ci, i, all_anchor, lin_all, work, word, mctx,
                                  bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc)
                    if c < 0:
                        sc[SC_ERROR] = ERR_ARENA
                        return -1
                ci[i, 0] = ck
                ci[i, 1] = off
                ci[i, 2] = c
                sc[SC_CACHE_USED] += 1
            lslot[p, k] = i
        c = ci[i, 2]
        if copy:
            off = ci[i, 1]
            if base + n + c > cap:
                sc[SC_ERROR] = ERR_MOVE_BUFFER
                return -1
            for a in range(c):
                src = off + a
                dst = base + n + a
                for col in range(4):
                    pm_meta[dst, col] = ar_meta[src, col]
                pm_aux[dst, A_GAIN] = ar_aux[src, A_GAIN]
                pm_aux[dst, A_NTILES] = ar_aux[src, A_NTILES]
                pm_aux[dst, A_SRC] = src
        else:
            w = ci[i, 3]
            li = ((w >> 16) & 0xFFFF) - 1
            if li >= 0 and (oi < 0 or (w & 0xFFFF) - 1 > os_):
                os_ = (w & 0xFFFF) - 1
                oi = n + li
            li = ((w >> 48) & 0xFFFF) - 1
            if li >= 0 and (gi < 0 or ((w >> 32) & 0xFFFF) - 1 > gs):
                gs = ((w >> 32) & 0xFFFF) - 1
                gi = n + li
        n += c
    sc[SC_F_OUT_SCORE] = os_
    sc[SC_F_OUT_I] = oi
    sc[SC_F_GAIN] = gs
    sc[SC_F_GAIN_I] = gi
    return n


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _clear_cache(ci, sc):
    for i in range(ci.shape[0]):
        ci[i, 0] = 0
    sc[SC_CACHE_USED] = 0
    sc[SC_ARENA] = 0
    sc[SC_CACHE_CLEARS] += 1


# ------------------------------------------------------------------------------------------------ search
SELECT_FIRST = 3
"""Moves picked by selection at a node (a cut-off usually comes among them) before the rest is sorted."""


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _sort_by_gain(pm_ord, pm_aux, base, lo, hi):
    """Sort ``pm_ord[lo:hi]`` (move indices from ``base``) by decreasing gain, in place (Shell sort)."""
    n = hi - lo
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    while gap > 0:
        for i in range(lo + gap, hi):
            x = pm_ord[i]
            kx = pm_aux[base + x, A_GAIN]
            j = i
            while j - gap >= lo and pm_aux[base + pm_ord[j - gap], A_GAIN] < kx:
                pm_ord[j] = pm_ord[j - gap]
                j -= gap
            pm_ord[j] = x
        gap //= 3


@njit(cache=True, inline="always")
def _words_hold(jg, x, pm_meta, pm_aux, ar_tiles, letters, lines, line_len, line_dir, cell_line, cell_pos):
    """Whether placement ``jg``'s words (its main word ``st..en``, the runs across its new tiles) hold square ``x`` (a tile
    on the board): else the placement and a one-tile play on ``x`` do not touch (either order, the same scores)."""
    k, st, en, dk, src = _move_span(jg, pm_meta, pm_aux, line_dir)
    if cell_line[x, dk] == k and st <= cell_pos[x, dk] <= en:
        return True
    for q in range(st, en + 1):
        if ar_tiles[src, q] >= 0:
            c = lines[k, q]
            kk = cell_line[c, 1 - dk]
            if cell_line[x, 1 - dk] == kk:
                lo, hi = _run_span(kk, cell_pos[c, 1 - dk], letters, lines, line_len)
                if lo <= cell_pos[x, 1 - dk] <= hi:
                    return True
    return False


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _child_key(jg, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc):
    """The table key of the position after placement ``jg`` of ``mover`` (the opponent to move, scoreless count 0),
    from the move (``bkey_p``: the board key before it); nothing is changed."""
    nl = sc[SC_NL]
    other = 1 - mover
    k = np.int64(pm_meta[jg, 0])
    st = np.int64(pm_meta[jg, 1])
    en = np.int64(pm_meta[jg, 2])
    src = pm_aux[jg, A_SRC]
    key = bkey_p
    hw = rs[mover, R_HASH_WAIT]
    for q in range(st, en + 1):
        t = ar_tiles[src, q]
        if t < 0:
            continue
        code = t & 63
        isb = (t & 64) != 0
        key ^= zb[lines[k, q], code + (nl if isb else 0)]
        slot = nl if isb else code
        n = cnt[mover, slot]
        hw ^= zrw[slot, n - 1]
        cnt[mover, slot] = n - 1
    for q in range(st, en + 1):
        t = ar_tiles[src, q]
        if t >= 0:
            cnt[mover, nl if (t & 64) != 0 else t & 63] += 1
    return key ^ rs[other, R_HASH_MOVE] ^ hw ^ zs[0] ^ sc[SC_SALT]


@njit(cache=True, inline="always")
def _one_tile_child_key(jg, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc):
    """:func:`_child_key` of one-tile placement ``jg``, without its loops over the word (the leave memo's key on a hot
    path: 4-12 % less CPU on positions 19 and 25 than calling :func:`_child_key`; the same key, tested)."""
    nl = sc[SC_NL]
    t, cell = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)
    slot = _tile_slot(t, nl)
    return (bkey_p ^ zb[cell, (t & 63) + (nl if (t & 64) != 0 else 0)] ^ rs[1 - mover, R_HASH_MOVE] ^ rs[mover, R_HASH_WAIT]
            ^ zrw[slot, cnt[mover, slot] - 1] ^ zs[0] ^ sc[SC_SALT])


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _probe_child(jg, mover, depth, alpha, beta, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, tt, sc):
    """The value the table gives the position after placement ``jg`` of ``mover`` (the opponent to move, scoreless
    count 0) when it settles that child's search at ``depth`` with window (``alpha``, ``beta``) at once, as
    entering the child would (:func:`_search_loop`'s table cut-off); else ``-INF``. The child's key is
    computed from the move (``bkey_p``: the board key before it; and the mover's rack key after the tiles are taken), nothing is changed
    (``sc[SC_RET_V]`` / ``sc[SC_RET_H]`` get the entry's value and horizon flag)."""
    key = _child_key(jg, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
    info = _tt_probe(tt, key)
    if info == 0:
        return np.int64(-INF)
    e_hit = _tt_hit(info)
    if not (e_hit == 0 or _tt_depth(info) >= depth):
        return np.int64(-INF)
    e_flag = _tt_flag(info)
    e_val = _tt_value(info)
    if e_flag == EXACT or (e_flag == LOWER and e_val >= beta) or (e_flag == UPPER and e_val <= alpha):
        sc[SC_RET_V] = e_val
        sc[SC_RET_H] = e_hit
        return e_val
    return np.int64(-INF)


@njit(cache=True, inline="always")
def _top_two(b1, b2, c1, score, cell):
    """The best score ``b1`` (on square ``c1``) and the best on another square ``b2``, with ``score`` on ``cell`` counted."""
    if cell == c1:
        return max(b1, score), b2, c1
    if score > b1:
        return score, b1, cell
    return b1, max(b2, score), c1


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _pair_bound(mover, base, n, pm_meta, pm_aux, ar_tiles, lines, cnt, val, vm, vo, nl, cbuf, stamp):
    """A true upper bound on the value of a node whose mover holds two tiles ``a`` and ``b`` (its list of ``n``
    placements from ``base``): the value were the opponent to pass at every turn (the opponent may always pass,
    so that is at least the value), where the mover's best line is to stop (``vo - vm``), go out at once
    (``out2 + 2 vo``, the best two-tile play), or play one tile, then stop or go out with the other. A one-tile
    play ``m1`` then ``m2``: when ``m2``'s square is in no run through ``m1``'s, ``m2`` is a play of the board
    now (same words, same score) on another square: at most ``B1(a) + B1(b)`` (each tile's best one-tile score now;
    when both are on one square, the better of each with the other's best on another square); else both
    squares are in one run and the two tiles together are a two-tile play of the board now, ``P``, whose words
    contain ``m2``'s (the same tiles, the premium squares at least as many): ``score(m2) <= score(P)``, and
    ``m1`` is a one-tile play of the board now on one of ``P``'s squares with its tile: at most the best
    ``score(P) + one-tile score on P's square`` over the two-tile plays (``cbuf``: per square, the best one-tile
    score of each tile, rows stamped with ``stamp``)."""
    slot_a, slot_b = _two_slots(cnt, mover, nl)
    b1a = np.int64(-INF)
    b1b = np.int64(-INF)
    out2 = np.int64(-INF)
    # each tile's best one-tile score and square, and its best on another square
    ca = np.int64(-1)
    cb = np.int64(-1)
    b2a = np.int64(-INF)
    b2b = np.int64(-INF)
    for j in range(n):
        jg = base + j
        if pm_aux[jg, A_NTILES] != 1:
            continue
        score = np.int64(pm_meta[jg, 3])
        t, cell = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)
        if cbuf[0, cell] != stamp:
            cbuf[0, cell] = stamp
            cbuf[1, cell] = -INF
            cbuf[2, cell] = -INF
        slot = nl if (t & 64) != 0 else (t & 63)
        if slot == slot_a:
            b1a, b2a, ca = _top_two(b1a, b2a, ca, score, cell)
            cbuf[1, cell] = max(cbuf[1, cell], score)
        if slot == slot_b:
            b1b, b2b, cb = _top_two(b1b, b2b, cb, score, cell)
            cbuf[2, cell] = max(cbuf[2, cell], score)
    dep = np.int64(-INF)
    for j in range(n):
        jg = base + j
        if pm_aux[jg, A_NTILES] != 2:
            continue
        score = np.int64(pm_meta[jg, 3])
        out2 = max(out2, score)
        src = pm_aux[jg, A_SRC]
        k = pm_meta[jg, 0]
        first = np.int64(-INF)
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            t = np.int64(ar_tiles[src, q])
            if t < 0:
                continue
            cell = np.int64(lines[k, q])
            if cbuf[0, cell] != stamp:
                continue
            slot = nl if (t & 64) != 0 else (t & 63)
            if slot == slot_a:
                first = max(first, cbuf[1, cell])
            if slot == slot_b:
                first = max(first, cbuf[2, cell])
        if first > -INF:
            dep = max(dep, score + first)
    ub = np.int64(vo - vm)
    if out2 > -INF:
        ub = max(ub, out2 + 2 * vo)
    if dep > -INF:
        ub = max(ub, dep + 2 * vo)
    if b1a > -INF:
        ub = max(ub, b1a + vo - (val[slot_b] if slot_b < nl else 0))
    if b1b > -INF:
        ub = max(ub, b1b + vo - (val[slot_a] if slot_a < nl else 0))
    # two one-tile plays on two squares (independent: each a play of the board now)
    both = b1a + b1b if ca != cb else max(b1a + b2b, b2a + b1b)
    if slot_a == slot_b:
        both = b1a + b2a
    if both > -INF // 2:
        ub = max(ub, both + 2 * vo)
    return ub

@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _opp_outs(p, base, n, n_opp, fr, pm_meta, pm_aux, ar_tiles, lines):
    """Keep in ``fr[p]`` the best (up to :data:`N_OPP_OUTS`, by score; the same squares once) of the opponent's
    ``n`` plays listed from ``base`` that place all its ``n_opp`` tiles (going out): score and squares."""
    w = 1 + OPP_OUT_TILES
    m = 0
    for j in range(n):
        jg = base + j
        if pm_aux[jg, A_NTILES] != n_opp:
            continue
        score = np.int64(pm_meta[jg, 3])
        if m == N_OPP_OUTS and score <= fr[p, F_OC + (m - 1) * w]:
            continue
        src = pm_aux[jg, A_SRC]
        k = pm_meta[jg, 0]
        # the same squares already kept: keep the best score; else insert by score
        at = -1
        for i in range(m):
            same = True
            r = 0
            for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
                if ar_tiles[src, q] >= 0:
                    if fr[p, F_OC + i * w + 1 + r] != lines[k, q]:
                        same = False
                        break
                    r += 1
            if same:
                at = i
                break
        if at >= 0:
            if score <= fr[p, F_OC + at * w]:
                continue
            i = at
        elif m < N_OPP_OUTS:
            i = m
            m += 1
        else:
            i = m - 1
        while i > 0 and fr[p, F_OC + (i - 1) * w] < score:
            for x in range(w):
                fr[p, F_OC + i * w + x] = fr[p, F_OC + (i - 1) * w + x]
            i -= 1
        fr[p, F_OC + i * w] = score
        r = 0
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            if ar_tiles[src, q] >= 0:
                fr[p, F_OC + i * w + 1 + r] = lines[k, q]
                r += 1
        while r < OPP_OUT_TILES:
            fr[p, F_OC + i * w + 1 + r] = -1
            r += 1
    fr[p, F_ON] = m


@njit(cache=True, inline="always")
def _in_move(x, k, dk, st, en, src, ar_tiles, cell_line, cell_pos):
    """Whether square ``x`` gets a tile of the move on line ``k`` (direction ``dk``, squares ``st..en``, tiles in arena row ``src``)."""
    if cell_line[x, dk] != k:
        return False
    q = cell_pos[x, dk]
    return st <= q <= en and ar_tiles[src, q] >= 0


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _opp_out_after(p, jg, fr, pm_meta, pm_aux, ar_tiles, letters, lines, line_len, line_dir, cell_line, cell_pos):
    """The best score among the opponent's kept going-out plays (``fr[p]``) that stay plays with the same score
    after move ``jg``: none of their squares gets a tile of the move and no run through one of them (both
    directions, on the board after the move with the play's own tiles) holds one (its words are the same tiles);
    -1 when none does."""
    k, st, en, dk, src = _move_span(jg, pm_meta, pm_aux, line_dir)
    w = 1 + OPP_OUT_TILES
    for i in range(fr[p, F_ON]):
        ok = True
        for r in range(OPP_OUT_TILES):
            c = fr[p, F_OC + i * w + 1 + r]
            if c < 0:
                break
            if _in_move(c, k, dk, st, en, src, ar_tiles, cell_line, cell_pos):
                ok = False
                break
            for d in range(2):
                kk = cell_line[c, d]
                n = line_len[kk]
                for step in (-1, 1):
                    q = cell_pos[c, d] + step
                    while 0 <= q < n:
                        x = lines[kk, q]
                        if _in_move(x, k, dk, st, en, src, ar_tiles, cell_line, cell_pos):
                            ok = False
                            break
                        if letters[x] < 0:
                            own = False
                            for r2 in range(OPP_OUT_TILES):
                                if fr[p, F_OC + i * w + 1 + r2] == x:
                                    own = True
                            if not own:
                                break
                        q += step
                    if not ok:
                        break
                if not ok:
                    break
            if not ok:
                break
        if ok:
            return fr[p, F_OC + i * w]
    return np.int64(-1)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _keep_b1(p, base, n, mover, fr, cnt, pm_meta, pm_aux, ar_tiles, lines, nl, scan):
    """Keep in ``fr[p]`` each of ``mover``'s distinct tiles (rack slots) with its best one-tile score among the ``n`` plays
    listed from ``base`` (for :func:`_leave_one_bound`); without ``scan`` only the tiles (their bests -INF: a pass over the
    list that keeps them follows, :func:`_keep_square_bests`), and the sum of its rack slots (``F_RSUM``)."""
    m = 0
    rsum = 0
    for x in range(nl + 1):
        if cnt[mover, x] > 0:
            rsum += x * cnt[mover, x]
            if m < 8:
                fr[p, F_B1 + 2 * m] = x
                fr[p, F_B1 + 2 * m + 1] = -INF
                m += 1
    fr[p, F_B1N] = m
    fr[p, F_RSUM] = rsum
    if not scan:
        return
    for j in range(n):
        jg = base + j
        if pm_aux[jg, A_NTILES] != 1:
            continue
        t, _ = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)
        slot = _tile_slot(t, nl)
        for i in range(m):
            if fr[p, F_B1 + 2 * i] == slot:
                if pm_meta[jg, 3] > fr[p, F_B1 + 2 * i + 1]:
                    fr[p, F_B1 + 2 * i + 1] = pm_meta[jg, 3]
                break


@njit(cache=True, inline="always")
def _one_tile_at(y, dc, slot, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, lmult, wmult, g, val, nl,
                 letter_filter, bingo):
    """The score of a one-tile play of rack slot ``slot`` (``nl``: the blank) on empty square ``y`` of the board in
    ``letters`` / ``vob``, whose run along direction ``1 - dc`` (cross-set index ``dc``) is recomputed here and whose
    other run is as in ``xmask`` / ``xscore``; -INF when it is no play."""
    m, s = cross_set_of(y, dc, letters, vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter)
    return _one_tile_score(y, dc, slot, m, s, xmask, xscore, lmult, wmult, val, nl, bingo)


@njit(cache=True, inline="always")
def _one_tile_upper(y, dc, slot, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, lmult, wmult, val, nl, bingo):
    """An upper bound on :func:`_one_tile_at` without the lexicon: the run along direction ``1 - dc`` scored as if the tile
    made a word with it (every letter in its cross-set), the other run's cross-set checked as there."""
    k = cell_line[y, 1 - dc]
    pos = cell_pos[y, 1 - dc]
    lo, hi = _run_span(k, pos, letters, lines, line_len)
    s = np.int64(-1)
    if lo < pos or hi > pos:
        s = np.int64(0)
        for q in range(lo, hi + 1):
            if q != pos:
                s += vob[lines[k, q]]
    return _one_tile_score(y, dc, slot, (np.int64(1) << nl) - 1, s, xmask, xscore, lmult, wmult, val, nl, bingo)


@njit(cache=True, inline="always")
def _one_tile_score(y, dc, slot, m, s, xmask, xscore, lmult, wmult, val, nl, bingo):
    """The score of a one-tile play of rack slot ``slot`` on empty square ``y`` given its recomputed run's cross-set ``m``
    and cross-score ``s`` (``s < 0``: no run) along direction ``1 - dc``, the other run's from ``xmask`` / ``xscore``;
    -INF when it is no play."""
    m2 = xmask[y, 1 - dc]
    s2 = xscore[y, 1 - dc]
    if s < 0 and s2 < 0:
        return np.int64(-INF)
    if slot < nl:
        if ((m >> slot) & 1) == 0 or ((m2 >> slot) & 1) == 0:
            return np.int64(-INF)
        v = np.int64(val[slot])
    else:
        if (m & m2) == 0:
            return np.int64(-INF)
        v = np.int64(0)
    lm = np.int64(lmult[y])
    wm = np.int64(wmult[y])
    score = bingo
    if s >= 0:
        score += wm * (lm * v + s)
    if s2 >= 0:
        score += wm * (lm * v + s2)
    return score


@njit(cache=True, inline="always")
def _fits(slot, m, s, nl):
    """Whether rack slot ``slot`` (``nl``: the blank) may go on a square with cross-set ``m`` (``s < 0``: no cross word)."""
    if s < 0:
        return True
    if slot < nl:
        return ((m >> slot) & 1) != 0
    return m != 0


@njit(cache=True, inline="always")
def _slot_index(p, fr, slot):
    """The index of rack slot ``slot`` in ``fr[p]``'s tiles (``F_B1``), -1 when not there."""
    for i in range(fr[p, F_B1N]):
        if fr[p, F_B1 + 2 * i] == slot:
            return i
    return -1


@njit(cache=True, inline="always")
def _tile_slot(t, nl):
    return nl if (t & 64) != 0 else (t & 63)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _keep_square_bests(p, base, n, n_rack, fr, pm_meta, pm_aux, ar_tiles, lines, nl, cbuf, stamp):
    """For the leave-two bounds at a node whose mover holds ``n_rack`` tiles (its ``n`` plays from ``base``; its tiles in
    ``fr[p]``, :func:`_keep_b1`): ``cbuf`` rows ``1 .. n_rack``, per square, each tile's best one-tile score there; rows
    ``n_rack + 1 .. 2 n_rack`` its best play of all ``n_rack`` tiles holding it there (rows stamped with ``stamp`` in
    row 0); and each tile's best one-tile score in ``fr[p]`` (:func:`_keep_b1`'s, in the same pass)."""
    for j in range(n):
        jg = base + j
        nt = pm_aux[jg, A_NTILES]
        if nt != 1 and nt != n_rack:
            continue
        r = pm_aux[jg, A_SRC]
        k = pm_meta[jg, 0]
        score = np.int64(pm_meta[jg, 3])
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            t = ar_tiles[r, q]
            if t < 0:
                continue
            cell = lines[k, q]
            if cbuf[0, cell] != stamp:
                cbuf[0, cell] = stamp
                for row in range(1, 2 * n_rack + 1):
                    cbuf[row, cell] = -INF
            i = _slot_index(p, fr, _tile_slot(t, nl))
            row = 1 + i if nt == 1 else 1 + n_rack + i
            cbuf[row, cell] = max(cbuf[row, cell], score)
            if nt == 1 and score > fr[p, F_B1 + 2 * i + 1]:
                fr[p, F_B1 + 2 * i + 1] = score


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _keep_leave_two(p, base, n, mover, fr, cnt, pm_meta, pm_aux, ar_tiles, lines, nl, cbuf, stamp):
    """For :func:`_leave_two_bound` at a three-tile mover's node (its ``n`` plays from ``base``; its tiles in ``fr[p]``,
    :func:`_keep_b1`): per tile, the other two's best two-tile play and best ``one-tile play + two-tile play through its
    square`` (``fr[p, F_P2:]``), and per one-tile play the best three-tile play holding its tile on its square
    (``pm_aux[., A_INL]``; a blank counts for any letter). ``cbuf`` rows 1-3: per square, each tile's best one-tile score;
    rows 4-6: its best three-tile play there (rows stamped with ``stamp`` in row 0)."""
    m = fr[p, F_B1N]
    for i in range(3):
        fr[p, F_P2 + 2 * i] = -INF
        fr[p, F_P2 + 2 * i + 1] = -INF
    _keep_square_bests(p, base, n, np.int64(3), fr, pm_meta, pm_aux, ar_tiles, lines, nl, cbuf, stamp)
    for j in range(n):
        jg = base + j
        nt = pm_aux[jg, A_NTILES]
        if nt == 1:
            t, cell = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)
            pm_aux[jg, A_INL] = cbuf[4 + _slot_index(p, fr, _tile_slot(t, nl)), cell]
            continue
        if nt != 2:
            continue
        r = pm_aux[jg, A_SRC]
        k = pm_meta[jg, 0]
        score = np.int64(pm_meta[jg, 3])
        first = np.int64(-INF)
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            t = ar_tiles[r, q]
            if t < 0:
                continue
            cell = lines[k, q]
            sl = _tile_slot(t, nl)
            cnt[mover, sl] -= 1
            if cbuf[0, cell] == stamp:
                first = max(first, cbuf[1 + _slot_index(p, fr, sl), cell])
        third = -1
        for i in range(m):
            if cnt[mover, fr[p, F_B1 + 2 * i]] > 0:
                third = i
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            t = ar_tiles[r, q]
            if t >= 0:
                cnt[mover, _tile_slot(t, nl)] += 1
        c = F_P2 + 2 * third
        fr[p, c] = max(fr[p, c], score)
        if first > -INF:
            fr[p, c + 1] = max(fr[p, c + 1], score + first)


@njit(cache=True, inline="always")
def _memo_cross_set(line_key, placed, y, e, xmemo, letters, vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter):
    """:func:`cross_set_of` of square ``y`` (index ``e``) on the line through it whose key is ``line_key``, with a move's tiles
    (hashed in ``placed``: :func:`_placed_key`) on the board for a moment, from ``xmemo`` (direct-mapped, per thread, cleared
    each solve: the same line, tiles and square give the same cross-set, and the siblings of a node bound the same
    plays) or computed and kept there."""
    mk = _mix(line_key ^ placed ^ ((y + 1) * K3))
    if mk == 0:
        mk = np.int64(1)
    i = mk & (xmemo.shape[0] - 1)
    if xmemo[i, 0] == mk:
        w = xmemo[i, 1]
        return w >> 16, (w & 0xFFFF) - 1
    m, s = cross_set_of(y, e, letters, vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter)
    xmemo[i, 0] = mk
    xmemo[i, 1] = (m << 16) | (s + 1)
    return m, s


@njit(cache=True, inline="always")
def _leave_memo_key(jg, one_tile, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc):
    """The leave memo's key of the position after placement ``jg`` (``one_tile``: a one-tile move, keyed the quick way):
    its table key, never 0 (an empty slot reads as key 0)."""
    if one_tile:
        key = _one_tile_child_key(jg, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
    else:
        key = _child_key(jg, mover, bkey_p, pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
    return key if key != 0 else np.int64(1)


@njit(cache=True, inline="always")
def _leave_memo_slot(lmemo, lkey):
    """The row of the leave memo that holds key ``lkey`` (direct-mapped)."""
    return lkey & (lmemo.shape[0] - 1)


@njit(cache=True, inline="always")
def _leave_memo_get(lmemo, lkey):
    """The true bound kept for the position of table key ``lkey`` (see ``OPT_LEAVE_MEMO``), INF when none: an entry is
    ``key ^ value``, ``value``, so one being rewritten by another thread reads as none."""
    i = _leave_memo_slot(lmemo, lkey)
    v = lmemo[i, 1]
    if lmemo[i, 0] ^ v == lkey:
        return v
    return np.int64(INF)


@njit(cache=True, inline="always")
def _leave_memo_put(lmemo, lkey, v):
    """Keep true bound ``v`` for the position of table key ``lkey`` (see :func:`_leave_memo_get`)."""
    i = _leave_memo_slot(lmemo, lkey)
    lmemo[i, 0] = lkey ^ v
    lmemo[i, 1] = v


@njit(cache=True, inline="always")
def _count_move_tiles(jg, mover, delta, cnt, pm_meta, pm_aux, ar_tiles, nl):
    """Add ``delta`` to ``mover``'s count of each tile of move ``jg`` (-1: the rack after the move; +1: back)."""
    src = pm_aux[jg, A_SRC]
    for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
        t = ar_tiles[src, q]
        if t >= 0:
            cnt[mover, _tile_slot(t, nl)] += delta


@njit(cache=True, inline="always")
def _show_move_tiles(jg, on, letters, vob, pm_meta, pm_aux, ar_tiles, lines, val):
    """Put move ``jg``'s tiles on the board (``letters`` / ``vob``) for a moment (``on``: no move made, no log), or take them
    off again."""
    src = pm_aux[jg, A_SRC]
    k = pm_meta[jg, 0]
    for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
        t = ar_tiles[src, q]
        if t >= 0:
            cell = lines[k, q]
            if on:
                letters[cell] = t & 63
                vob[cell] = 0 if (t & 64) != 0 else val[t & 63]
            else:
                letters[cell] = -1
                vob[cell] = 0


@njit(cache=True, inline="always")
def _placed_key(cell, t):
    """A tile (arena code ``t``) put on square ``cell``, hashed for :func:`_memo_cross_set` (a move's tiles: the sum)."""
    return _mix((cell * 256 + t + 1) * K2)  # (not ``+ K2`` after the shift: numba 0.68 gave one value for all small inputs)


@njit(cache=True, inline="always")
def _leave_two_terms(vo, vu, vv, b1u, b1v, out2, dep, inl):
    """The two-tile bound (:func:`_pair_bound`) of tiles ``u``, ``v`` from bounds on its parts: stop (``vo - vu - vv``), one
    tile then stop (``b1u``, ``b1v``: each tile's best one-tile score), or go out (``+ 2 vo``): a two-tile play (``out2``),
    one tile then a two-tile play through its square (``dep``), a two-tile play holding the move's tiles (at most ``inl``,
    then with a one-tile play before it) or two one-tile plays apart."""
    ub = vo - vu - vv
    if b1u > -INF:
        ub = max(ub, b1u + vo - vv)
    if b1v > -INF:
        ub = max(ub, b1v + vo - vu)
    go = max(out2, dep, inl)
    b1m = max(b1u, b1v)
    if inl > -INF and b1m > -INF:
        go = max(go, inl + b1m)
    if b1u > -INF and b1v > -INF:
        go = max(go, b1u + b1v)
    if go > -INF:
        ub = max(ub, go + 2 * vo)
    return ub


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _leave_two_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask, xscore, lines, line_len,
                     cell_line, cell_pos, lmult, wmult, g, val, nl, letter_filter, lh, xmemo):
    """A true upper bound on the value of one-tile placement ``jg`` (tile ``t1`` on square ``x1``) of a three-tile mover,
    leaving tiles ``u`` and ``v``: ``score +`` the two-tile bound (:func:`_pair_bound`) on the board after it, each of its
    terms bounded from the board now (see the module docstring; the node's parts from :func:`_keep_leave_two`). Only the
    part from the node's list when that already exceeds ``alpha``."""
    s1 = np.int64(pm_meta[jg, 3])
    t1, x1 = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)
    slot1 = _tile_slot(t1, nl)
    cnt[mover, slot1] -= 1
    su, sv = _two_slots(cnt, mover, nl)
    cnt[mover, slot1] += 1
    vu = np.int64(val[su]) if su < nl else np.int64(0)
    vv = np.int64(val[sv]) if sv < nl else np.int64(0)
    b1u = fr[p, F_B1 + 2 * _slot_index(p, fr, su) + 1]
    b1v = fr[p, F_B1 + 2 * _slot_index(p, fr, sv) + 1]
    i1 = _slot_index(p, fr, slot1)
    out2 = fr[p, F_P2 + 2 * i1]
    dep = fr[p, F_P2 + 2 * i1 + 1]
    inl = pm_aux[jg, A_INL]
    touched = False
    while True:
        ub = _leave_two_terms(vo, vu, vv, b1u, b1v, out2, dep, inl)
        if touched or s1 + ub > alpha:
            return s1 + ub
        # the plays after the move that touch x1: one tile on a square y at an end of a run through x1 (exact, the
        # cross-set of that run recomputed; the other run at y does not hold x1), or two tiles along the other line
        # through y (y's cross word and the other tile's checked, the main word not: counted as if a word)
        touched = True
        letters[x1] = t1 & 63
        vob[x1] = 0 if (t1 & 64) != 0 else val[t1 & 63]
        pt = np.int64(-INF)
        for d in range(2):
            kk = cell_line[x1, d]
            nn = line_len[kk]
            pp = cell_pos[x1, d]
            lo, hi = _run_span(kk, pp, letters, lines, line_len)
            e = 1 - d
            for yq in (lo - 1, hi + 1):
                if yq < 0 or yq >= nn:
                    continue
                y = np.int64(lines[kk, yq])
                # y's run along d (cross-set index e) holds x1; its run along e (index d) is the board's
                my, sy = _memo_cross_set(lh[p, kk], _placed_key(x1, t1), y, e, xmemo, letters, vob, lines, line_len, cell_line,
                                         cell_pos, g, nl, letter_filter)
                b1u = max(b1u, _one_tile_score(y, e, su, my, sy, xmask, xscore, lmult, wmult, val, nl, np.int64(0)))
                b1v = max(b1v, _one_tile_score(y, e, sv, my, sy, xmask, xscore, lmult, wmult, val, nl, np.int64(0)))
                # two tiles along the line through y in direction e: the other on z, at an end of y's run along e (z's run
                # along d is on another line than x1's: the board's)
                pt = max(pt, _two_through(y, e, my, sy, su, sv, False, np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0),
                                          ar_tiles, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, lmult, wmult,
                                          val, g, nl, letter_filter))
        letters[x1] = -1
        vob[x1] = 0
        if pt > -INF:
            out2 = max(out2, pt)
            b1m = max(b1u, b1v)
            if b1m > -INF:
                dep = max(dep, pt + b1m)
    return np.int64(INF)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _keep_leave_two_four(p, base, n, fr, pm_meta, pm_aux, ar_tiles, lines, nl, cbuf, stamp):
    """For :func:`_leave_two_four_bound` at a four-tile mover's node (its ``n`` plays from ``base``; its tiles in ``fr[p]``,
    :func:`_keep_b1`): per pair of tiles, their best two-tile play and best ``one-tile play + two-tile play through its
    square`` (``fr[p, F_P4:]``), and per two-tile play the least over its tiles of the best four-tile play holding that
    tile on that square (``pm_aux[., A_INL]``: at least any four-tile play holding both). ``cbuf`` rows 1-4: per square,
    each tile's best one-tile score; rows 5-8: its best four-tile play there (rows stamped with ``stamp`` in row 0)."""
    for x in range(32):
        fr[p, F_P4 + x] = -INF
    _keep_square_bests(p, base, n, np.int64(4), fr, pm_meta, pm_aux, ar_tiles, lines, nl, cbuf, stamp)
    for j in range(n):
        jg = base + j
        if pm_aux[jg, A_NTILES] != 2:
            continue
        r = pm_aux[jg, A_SRC]
        k = pm_meta[jg, 0]
        score = np.int64(pm_meta[jg, 3])
        first = np.int64(-INF)
        inl = np.int64(INF)
        ia = -1
        ib = -1
        for q in range(pm_meta[jg, 1], pm_meta[jg, 2] + 1):
            t = ar_tiles[r, q]
            if t < 0:
                continue
            cell = lines[k, q]
            i = _slot_index(p, fr, _tile_slot(t, nl))
            if ia < 0:
                ia = i
            else:
                ib = i
            if cbuf[0, cell] == stamp:
                first = max(first, cbuf[1 + i, cell])
                inl = min(inl, cbuf[5 + i, cell])
            else:
                inl = np.int64(-INF)  # no four-tile play puts this tile there
        pm_aux[jg, A_INL] = inl
        c = F_P4 + 2 * (4 * ia + ib)
        fr[p, c] = max(fr[p, c], score)
        if first > -INF:
            fr[p, c + 1] = max(fr[p, c + 1], score + first)
        c2 = F_P4 + 2 * (4 * ib + ia)
        fr[p, c2] = fr[p, c]
        fr[p, c2 + 1] = fr[p, c + 1]


@njit(cache=True, inline="always")
def _run_holds_move(z, d, k, dd, st, en, src, ar_tiles, letters, lines, line_len, cell_line, cell_pos):
    """Whether the run of tiles along direction ``d`` next to empty square ``z`` holds a tile of the move on line ``k``
    (direction ``dd``, squares ``st..en``, tiles in arena row ``src``; the move's tiles on the board)."""
    kk = cell_line[z, d]
    pz = cell_pos[z, d]
    lo, hi = _run_span(kk, pz, letters, lines, line_len)
    for q in range(lo, hi + 1):  # noqa: SIM110  (a loop the kernel compiles, no generator)
        if q != pz and _in_move(lines[kk, q], k, dd, st, en, src, ar_tiles, cell_line, cell_pos):
            return True
    return False


@njit(cache=True, inline="always")
def _two_through(y, e, my, sy, su, sv, recheck, k, dd, st, en, src, ar_tiles, letters, vob, xmask, xscore, lines, line_len,
                 cell_line, cell_pos, lmult, wmult, val, g, nl, letter_filter):
    """An upper bound on a two-tile play of rack slots ``su``, ``sv`` along direction ``e`` with one tile on empty square ``y``
    (its cross-set ``my`` / ``sy`` there) and the other on a square ``z`` at an end of ``y``'s run along ``e``: scored as if
    its main word were a word, its tiles' cross words checked; ``z``'s from the board, or with ``recheck`` recomputed when
    its run holds a tile of the move on line ``k`` (on the board: see :func:`_run_holds_move`). -INF: none."""
    best = np.int64(-INF)
    ke = cell_line[y, e]
    ne = line_len[ke]
    a, b = _run_span(ke, cell_pos[y, e], letters, lines, line_len)
    lmy = np.int64(lmult[y])
    wmy = np.int64(wmult[y])
    for zq in (a - 1, b + 1):
        if zq < 0 or zq >= ne:
            continue
        z = np.int64(lines[ke, zq])
        mz = xmask[z, e]
        sz = xscore[z, e]
        if recheck and _run_holds_move(z, 1 - e, k, dd, st, en, src, ar_tiles, letters, lines, line_len, cell_line, cell_pos):
            mz, sz = cross_set_of(z, e, letters, vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter)
        lo2 = min(a, zq)
        hi2 = max(b, zq)
        while lo2 > 0 and letters[lines[ke, lo2 - 1]] >= 0:
            lo2 -= 1
        while hi2 + 1 < ne and letters[lines[ke, hi2 + 1]] >= 0:
            hi2 += 1
        run = np.int64(0)
        for q in range(lo2, hi2 + 1):
            run += vob[lines[ke, q]]
        lmz = np.int64(lmult[z])
        wmz = np.int64(wmult[z])
        for w in range(2):
            ty = su if w == 0 else sv
            tz = sv if w == 0 else su
            if not (_fits(ty, my, sy, nl) and _fits(tz, mz, sz, nl)):
                continue
            vy = np.int64(val[ty]) if ty < nl else np.int64(0)
            vz = np.int64(val[tz]) if tz < nl else np.int64(0)
            score = wmy * wmz * (lmy * vy + lmz * vz + run)
            if sy >= 0:
                score += wmy * (lmy * vy + sy)
            if sz >= 0:
                score += wmz * (lmz * vz + sz)
            best = max(best, score)
    return best


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _leave_two_four_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask, xscore, lines,
                          line_len, line_dir, cell_line, cell_pos, lmult, wmult, g, val, nl, letter_filter, lh, xmemo):
    """A true upper bound on the value of two-tile placement ``jg`` of a four-tile mover, leaving tiles ``u`` and ``v``:
    ``score +`` the two-tile bound on the board after it, each term bounded from the board now (the node's parts from
    :func:`_keep_leave_two_four`), as :func:`_leave_two_bound` does for one tile: a one-tile play after it is one of the
    board now or on a square ``y`` at an end of a run through its tiles (exact, that run's cross-set recomputed); a
    two-tile play whose words hold none of its tiles is one of the board now; one whose main word holds them along the
    move's line makes with it a four-tile play of the board now (at most ``A_INL``); one whose main word crosses the
    move's line through a new tile has its tiles at ends of that tile's run across (as ``y``, then ``z``), and one
    whose cross word holds a new tile has a tile on such a ``y`` and the other at an end of ``y``'s run along the
    play: both scored as if the main word were a word (the cross words checked, a cross-set that holds a tile of the
    move recomputed). Only the part from the node's list when that already exceeds ``alpha``."""
    k, st, en, dd, src = _move_span(jg, pm_meta, pm_aux, line_dir)
    s2 = np.int64(pm_meta[jg, 3])
    _count_move_tiles(jg, mover, -1, cnt, pm_meta, pm_aux, ar_tiles, nl)
    su, sv = _two_slots(cnt, mover, nl)
    _count_move_tiles(jg, mover, 1, cnt, pm_meta, pm_aux, ar_tiles, nl)
    vu = np.int64(val[su]) if su < nl else np.int64(0)
    vv = np.int64(val[sv]) if sv < nl else np.int64(0)
    iu = _slot_index(p, fr, su)
    iv = _slot_index(p, fr, sv)
    b1u = fr[p, F_B1 + 2 * iu + 1]
    b1v = fr[p, F_B1 + 2 * iv + 1]
    c = F_P4 + 2 * (4 * iu + iv)
    out2 = fr[p, c]
    dep = fr[p, c + 1]
    inl = pm_aux[jg, A_INL]
    touched = False
    while True:
        ub = _leave_two_terms(vo, vu, vv, b1u, b1v, out2, dep, inl)
        if touched or s2 + ub > alpha:
            return s2 + ub
        touched = True
        _show_move_tiles(jg, True, letters, vob, pm_meta, pm_aux, ar_tiles, lines, val)
        placed = np.int64(0)
        for q in range(st, en + 1):
            if ar_tiles[src, q] >= 0:
                placed += _placed_key(lines[k, q], ar_tiles[src, q])
        pt = np.int64(-INF)
        for q in range(st - 1, en + 1):
            if q >= st and ar_tiles[src, q] < 0:
                continue
            a, b, dn = _end_squares(k, q, st, en, dd, letters, lines, line_len, cell_line, cell_pos)
            for y in (a, b):
                if y < 0:
                    continue
                # y's run along 1 - dn holds a new tile (cross-set index dn, recomputed); its run along dn is the board's
                my, sy = _memo_cross_set(lh[p, cell_line[y, 1 - dn]], placed, y, dn, xmemo, letters, vob, lines, line_len, cell_line,
                                         cell_pos, g, nl, letter_filter)
                b1u = max(b1u, _one_tile_score(y, dn, su, my, sy, xmask, xscore, lmult, wmult, val, nl, np.int64(0)))
                b1v = max(b1v, _one_tile_score(y, dn, sv, my, sy, xmask, xscore, lmult, wmult, val, nl, np.int64(0)))
                # two tiles along dn through y: y's cross word holds the new tile
                pt = max(pt, _two_through(y, dn, my, sy, su, sv, True, k, dd, st, en, src, ar_tiles, letters, vob, xmask, xscore,
                                          lines, line_len, cell_line, cell_pos, lmult, wmult, val, g, nl, letter_filter))
                if q >= st:
                    # two tiles across the move's line through the new tile at q: the main word holds it
                    pt = max(pt, _two_through(y, 1 - dn, xmask[y, 1 - dn], xscore[y, 1 - dn], su, sv, False, k, dd, st, en, src,
                                              ar_tiles, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos, lmult,
                                              wmult, val, g, nl, letter_filter))
        _show_move_tiles(jg, False, letters, vob, pm_meta, pm_aux, ar_tiles, lines, val)
        if pt > -INF:
            out2 = max(out2, pt)
            b1m = max(b1u, b1v)
            if b1m > -INF:
                dep = max(dep, pt + b1m)
    return np.int64(INF)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _leave_one_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask, xscore, lines, line_len,
                     line_dir, cell_line, cell_pos, lmult, wmult, g, val, nl, letter_filter, bingo):
    """A true upper bound on the value of placement ``jg`` that leaves ``mover`` one tile ``t`` (see the module docstring):
    ``score + max(vo - value(t), best one-tile score of t on the board after it + 2 vo)``, where that best is the node's
    best one-tile score of ``t`` (``fr[p]``, :func:`_keep_b1`: the squares whose runs hold none of the move's tiles
    have the same plays) or a play on a square at an end of a run through one of the move's tiles (its cross-set there
    recomputed with the move's tiles on the board). Only the first part when that already exceeds ``alpha``; the plays
    after the move first scored without the lexicon (:func:`_one_tile_upper`), their cross-sets computed only when that
    looser bound exceeds ``alpha`` (most moves it prunes need no lexicon walk: measured 5-20 % less CPU on positions 6
    and 26 of the measured set)."""
    k, st, en, dd, src = _move_span(jg, pm_meta, pm_aux, line_dir)
    score = np.int64(pm_meta[jg, 3])
    slot = np.int64(fr[p, F_RSUM])  # the tile left: the rack's slots less the move's (no pass over the rack's counts)
    for q in range(st, en + 1):
        t = ar_tiles[src, q]
        if t >= 0:
            slot -= _tile_slot(t, nl)
    vt = np.int64(val[slot]) if slot < nl else np.int64(0)
    b1 = np.int64(-INF)
    for i in range(fr[p, F_B1N]):
        if fr[p, F_B1 + 2 * i] == slot:
            b1 = fr[p, F_B1 + 2 * i + 1]
    ub = vo - vt
    if b1 > -INF:
        ub = max(ub, b1 + 2 * vo)
    if score + ub > alpha:
        return score + ub
    _show_move_tiles(jg, True, letters, vob, pm_meta, pm_aux, ar_tiles, lines, val)
    for exact in range(2):
        # first without the lexicon (an upper bound of each play); the plays' cross-sets only when that does not settle it
        best = np.int64(-INF)
        for q in range(st - 1, en + 1):
            if q >= st and ar_tiles[src, q] < 0:
                continue
            a, b, dn = _end_squares(k, q, st, en, dd, letters, lines, line_len, cell_line, cell_pos)
            for y in (a, b):
                if y >= 0:
                    if exact:
                        best = max(best, _one_tile_at(y, dn, slot, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos,
                                                      lmult, wmult, g, val, nl, letter_filter, bingo))
                    else:
                        best = max(best, _one_tile_upper(y, dn, slot, letters, vob, xmask, xscore, lines, line_len, cell_line, cell_pos,
                                                         lmult, wmult, val, nl, bingo))
        if best == -INF or score + max(ub, best + 2 * vo) <= alpha:
            break
    _show_move_tiles(jg, False, letters, vob, pm_meta, pm_aux, ar_tiles, lines, val)
    if best > -INF:
        ub = max(ub, best + 2 * vo)
    return score + ub

@njit(cache=True, nogil=True)
def search(g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val, zb, zrm, zrw, zs, zline,
           letters, blank, vob, xmask, xscore, lh, bkey, undo, cnt, rs, fr, pm_meta, pm_aux, pm_ord, root_key,
           ci, lslot, ar_meta, ar_tiles, ar_aux, tt,
           all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc, choices, cbuf,
           xmemo, lmemo):
    """The entry point (one compiled unit). ``sc[SC_MODE]`` = ``MODE_LIST``: play ``choices`` from the
    root and list the moves after them (:func:`_play_and_list`; the principal variation and the tests
    use it). Otherwise run (or resume) the iterative-deepening search until ``sc[SC_NODES]`` reaches ``sc[SC_STOP]``
    (status paused), an iteration proves the value or reaches ``sc[SC_MAX_DEPTH]`` (done), or a
    buffer is too small (error). The deepest completed iteration: ``sc[SC_DONE_DEPTH]``,
    ``sc[SC_VALUE]``, ``sc[SC_BEST]`` (index in the root's move list, -1 pass), ``sc[SC_PROVEN]``."""
    if sc[SC_MODE] == MODE_LIST:
        sc[SC_RESULT] = _play_and_list(g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val, zb, zrm, zrw, zs,
                                       zline, letters, blank, vob, xmask, xscore, lh, bkey, undo, cnt, rs, pm_meta,
                                       pm_aux, ci, lslot, ar_meta, ar_tiles, ar_aux, tt,
                                       all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab,
                                       d_rvals, d_scratch, sc, choices)
    else:
        _search_loop(g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val, zb, zrm, zrw, zs, zline,
                     letters, blank, vob, xmask, xscore, lh, bkey, undo, cnt, rs, fr, pm_meta, pm_aux, pm_ord, root_key,
                     ci, lslot, ar_meta, ar_tiles, ar_aux, tt,
                     all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc, cbuf,
                     xmemo, lmemo)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the module docstring)
def _search_loop(g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val, zb, zrm, zrw, zs, zline,
                 letters, blank, vob, xmask, xscore, lh, bkey, undo, cnt, rs, fr, pm_meta, pm_aux, pm_ord, root_key,
                 ci, lslot, ar_meta, ar_tiles, ar_aux, tt,
                 all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc, cbuf,
                 xmemo, lmemo):
    """The search proper (see :func:`search`); no reference counting, no allocation."""
    limit = sc[SC_LIMIT]
    max_ply = fr.shape[0] - 1
    sc[SC_STATUS] = ST_RUNNING
    while True:
        act = sc[SC_ACT]
        p = sc[SC_PLY]
        if act == ACT_ITER:
            if sc[SC_NODES] >= sc[SC_STOP]:
                sc[SC_STATUS] = ST_PAUSED
                return
            fr[0, F_ALPHA] = sc[SC_WIN_LO]
            fr[0, F_BETA] = sc[SC_WIN_HI]
            fr[0, F_DEPTH] = sc[SC_DEPTH]
            sc[SC_BORROWED] = 0
            fr[0, F_SL] = sc[SC_ROOT_SL]
            fr[0, F_MOVER] = sc[SC_ROOT_MOVER]
            fr[0, F_MBASE] = 0
            sc[SC_PLY] = 0
            sc[SC_PLY_MAX] = 0
            sc[SC_ACT] = ACT_ENTER
            continue

        if act == ACT_ENTER:
            if sc[SC_NODES] >= sc[SC_STOP]:
                sc[SC_STATUS] = ST_PAUSED
                return
            sc[SC_NODES] += 1
            if p > sc[SC_PLY_MAX]:
                sc[SC_PLY_MAX] = p
            mover = fr[p, F_MOVER]
            other = 1 - mover
            sl = fr[p, F_SL]
            depth = fr[p, F_DEPTH]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            vm = rs[mover, R_VALUE]
            vo = rs[other, R_VALUE]
            key = bkey[p] ^ rs[mover, R_HASH_MOVE] ^ rs[other, R_HASH_WAIT] ^ zs[sl] ^ sc[SC_SALT]
            fr[p, F_KEY] = key
            ttmv = NO_MOVE
            info = _tt_probe(tt, key)
            if info != 0:
                e_hit = _tt_hit(info)
                if p > 0 and (e_hit == 0 or _tt_depth(info) >= depth):
                    e_flag = _tt_flag(info)
                    e_val = _tt_value(info)
                    if e_flag == EXACT or (e_flag == LOWER and e_val >= beta) or (e_flag == UPPER and e_val <= alpha):
                        sc[SC_TT_CUTS] += 1
                        sc[SC_RET_V] = e_val
                        sc[SC_RET_H] = e_hit
                        sc[SC_ACT] = ACT_RETURN
                        continue
                ttmv = _tt_move(info)
            if depth <= 0:
                sc[SC_RET_V] = vo - vm
                sc[SC_RET_H] = 1
                sc[SC_ACT] = ACT_RETURN
                continue
            n_rack = rs[mover, R_N]
            pass_ends = _pass_ends(sl, limit)
            # the pass is valued exactly (not searched) when it ends the game, or when the opponent has just
            # passed for want of a placement on this same board (see the module docstring)
            if not pass_ends and p > 0 and sc[SC_OPTS] & OPT_STUCK_PASS and fr[p - 1, F_FORCED] == 1 and fr[p - 1, F_CUR] == PASS:
                pass_ends = True
            n = 1
            os_, oi, gs, gi = 0, -1, 0, -1
            if depth == 1:
                # every move valued at the horizon: going out exactly, others as score then racks paid
                n = _collect(p, mover, fr[p, F_MBASE], False, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult,
                             wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                             pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub,
                             d_ab, d_rvals, d_scratch, sc)
                if n < 0:
                    sc[SC_STATUS] = ST_ERROR
                    return
                os_, oi, gs, gi = sc[SC_F_OUT_SCORE], sc[SC_F_OUT_I], sc[SC_F_GAIN], sc[SC_F_GAIN_I]
            if depth == 1 and not (n == 0 and not pass_ends and sc[SC_OPTS] & OPT_FORCED_PASS_FREE):
                if p == 0:
                    sc[SC_ROOT_N] = n
                best = vo - vm
                bestmv = np.int64(PASS)
                hit = 0 if pass_ends else 1
                if oi >= 0 and os_ + 2 * vo > best:
                    best = os_ + 2 * vo
                    bestmv = oi  # type: ignore[assignment]  # an int64 in the kernel either way
                if gi >= 0:
                    hit = 1
                    if gs - vm + vo > best:
                        best = gs - vm + vo
                        bestmv = gi  # type: ignore[assignment]  # an int64 in the kernel either way
                sc[SC_LEAVES] += n + 1
                flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
                _tt_store(tt, key, np.int64(1), np.int64(flag), best, bestmv, np.int64(hit), sc[SC_GEN])
                fr[p, F_BESTMV] = bestmv
                sc[SC_RET_V] = best
                sc[SC_RET_H] = hit
                sc[SC_ACT] = ACT_RETURN
                continue
            if p > 0 and pass_ends and vo - vm >= beta:
                # the exact pass alone reaches beta: cut before listing any move
                sc[SC_CUT_EXACT] += 1
                _tt_store(tt, key, depth, np.int64(LOWER), vo - vm, np.int64(PASS), np.int64(0), sc[SC_GEN])
                fr[p, F_BESTMV] = PASS
                sc[SC_RET_V] = vo - vm
                sc[SC_RET_H] = 0
                sc[SC_ACT] = ACT_RETURN
                continue
            base = fr[p, F_MBASE]
            fr[p, F_ALPHA0] = alpha
            # the placements' own entry (independent of the scoreless count), when a pass led here
            pkey = key ^ zs[sl] ^ zs[PLACE_KEY]
            place_known = False
            pbest = np.int64(-INF)
            pmv = np.int64(NO_MOVE)
            phit = np.int64(0)
            last_tile = p > 0 and n_rack == 1 and sc[SC_OPTS] & OPT_LAST_TILE
            if p > 0 and sc[SC_OPTS] & OPT_PLACE_TABLE and not ((last_tile or sl == 0) and sc[SC_OPTS] & OPT_LEAN_TABLE):
                info = _tt_probe(tt, pkey)
                if info != 0:
                    e_hit = _tt_hit(info)
                    if e_hit == 0 or _tt_depth(info) >= depth:
                        e_flag = _tt_flag(info)
                        e_val = _tt_value(info)
                        if e_flag == LOWER and e_val >= beta:
                            _tt_store(tt, key, depth, np.int64(LOWER), np.int64(e_val),
                                      np.int64(_tt_move(info)), np.int64(e_hit), sc[SC_GEN])
                            sc[SC_TT_CUTS] += 1
                            sc[SC_RET_V] = e_val
                            sc[SC_RET_H] = e_hit
                            sc[SC_ACT] = ACT_RETURN
                            continue
                        if e_flag == EXACT or (e_flag == UPPER and e_val <= alpha):
                            place_known = True
                            pbest = np.int64(e_val)
                            pmv = np.int64(_tt_move(info))
                            phit = np.int64(e_hit)
            if place_known:
                n = 0
                nord = 0
                best = int(pbest)
                bestmv = int(pmv)  # type: ignore[assignment]  # an int64 in the kernel either way
                forced = pbest == -INF
            else:
                if last_tile:
                    # one tile left: every placement goes out (exact, no child), so no move list is made: the best
                    # going-out score from the lines' summaries (its index that of the list), then only the pass
                    n = _collect(p, mover, base, False, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore,
                                 lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                                 pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub,
                                 d_ab, d_rvals, d_scratch, sc)
                else:
                    n = _collect(p, mover, base, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore,
                                 lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                                 pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab,
                                 d_rvals, d_scratch, sc)
                if n < 0:
                    sc[SC_STATUS] = ST_ERROR
                    return
                fr[p, F_EPOCH] = sc[SC_CACHE_CLEARS]
                if p == 0:
                    sc[SC_ROOT_N] = n
                forced = n == 0
                # going out first (exact values, no child)
                best = np.int64(-INF)
                bestmv = np.int64(NO_MOVE)
                nord = 0
                if last_tile:
                    if sc[SC_F_OUT_I] >= 0:
                        best = sc[SC_F_OUT_SCORE] + 2 * vo
                        bestmv = sc[SC_F_OUT_I]
                else:
                    for j in range(n):
                        jg = base + j
                        if pm_aux[jg, A_NTILES] == n_rack:
                            v = pm_meta[jg, 3] + 2 * vo
                            if v > best:
                                best = v
                                bestmv = j  # type: ignore[assignment]  # an int64 in the kernel either way
                        else:
                            pm_ord[base + nord] = j
                            nord += 1
                pbest = np.int64(best)
                pmv = np.int64(bestmv)
                if best >= beta:
                    sc[SC_CUT_EXACT] += 1
                    _tt_store(tt, pkey, depth, np.int64(LOWER), best, bestmv, np.int64(0), sc[SC_GEN])
                    _tt_store(tt, key, depth, np.int64(LOWER), best, bestmv, np.int64(0), sc[SC_GEN])
                    fr[p, F_BESTMV] = bestmv
                    sc[SC_RET_V] = best
                    sc[SC_RET_H] = 0
                    sc[SC_ACT] = ACT_RETURN
                    continue
            fr[p, F_MN] = n
            # a pass that ends the game is exact too
            if pass_ends and vo - vm > best:
                best = vo - vm
                bestmv = np.int64(PASS)
                if best >= beta:
                    _tt_store(tt, key, depth, np.int64(LOWER), best, bestmv, np.int64(phit), sc[SC_GEN])
                    fr[p, F_BESTMV] = bestmv
                    sc[SC_RET_V] = best
                    sc[SC_RET_H] = phit
                    sc[SC_ACT] = ACT_RETURN
                    continue
            if p > 0 and not place_known and ((n_rack == 2 and sc[SC_OPTS] & OPT_PAIR_BOUND) or (last_tile and sc[SC_OPTS] & OPT_LAST_OUT)):
                # a true upper bound: the value were the opponent to pass at every turn (see the module docstring)
                if last_tile:
                    ub = best if bestmv >= 0 else vo - vm
                else:
                    sc[SC_STAMP] += 1
                    ub = _pair_bound(mover, base, np.int64(n), pm_meta, pm_aux, ar_tiles, lines, cnt, val, vm, vo, sc[SC_NL], cbuf, sc[SC_STAMP])
                if ub <= fr[p, F_ALPHA0] or ub <= best:
                    # it cannot beat alpha (fail low), or the exact options reach it (the value)
                    sc[SC_BOUND_CUTS] += 1
                    if ub <= fr[p, F_ALPHA0]:
                        best = ub
                        flag = UPPER
                    else:
                        flag = EXACT
                    _tt_store(tt, key, depth, np.int64(flag), best, np.int64(bestmv), np.int64(0), sc[SC_GEN])
                    fr[p, F_BESTMV] = bestmv
                    sc[SC_RET_V] = best
                    sc[SC_RET_H] = 0
                    sc[SC_ACT] = ACT_RETURN
                    continue
            if not pass_ends and sl + 1 < PLACE_KEY:
                # the pass child's table bucket and its placements' (PLACE_KEY), asked for now: a node that lists its
                # placements nearly always searches its pass last, and the child probes both buckets on entering (a
                # placement's child bucket is probed before its move is made: _probe_child)
                ckey = bkey[p] ^ rs[other, R_HASH_MOVE] ^ rs[mover, R_HASH_WAIT] ^ zs[sl + 1] ^ sc[SC_SALT]
                _prefetch_row(tt, _tt_bucket(tt, ckey))  # type: ignore[call-arg]
                _prefetch_row(tt, _tt_bucket(tt, ckey ^ zs[sl + 1] ^ zs[PLACE_KEY]))
            fr[p, F_ON] = 0
            fr[p, F_B1N] = -1
            fr[p, F_TWO_OPEN] = -1
            fr[p, F_X1SQ] = -1
            fr[p, F_INH_Q] = -1
            # the leave bounds' data, kept before the first move is searched (see ACT_NEXT)
            fr[p, F_LEAVE] = 1 if (p > 0 and not place_known and not last_tile and nord > 1 and n_rack >= 2 and depth >= 2
                                   and sc[SC_OPTS] & (OPT_LEAVE_ONE | OPT_LEAVE_TWO | OPT_LEAVE_TWO_FOUR)) else 0
            if (p > 0 and not place_known and not last_tile and nord > 0 and rs[other, R_N] <= OPP_OUT_TILES and depth >= 2
                    and sc[SC_OPTS] & OPT_OPP_OUT and fr[p - 1, F_FORCED] == 0):
                # the opponent's going-out plays (see _opp_out_after); none after its forced pass (no placement on this
                # same board: nothing to list)
                no = _collect(p, other, base + n, False, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore,
                              lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                              pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab,
                              d_rvals, d_scratch, sc)
                can_out = no > 0 and sc[SC_F_OUT_I] >= 0
                if can_out:  # (an opponent that cannot go out: nothing to copy)
                    no = _collect(p, other, base + n, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask,
                                  xscore, lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                                  pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab,
                                  d_rvals, d_scratch, sc)
                if no < 0:
                    sc[SC_ERROR] = 0  # no room to list them: no bound
                elif can_out:
                    _opp_outs(p, base + n, no, rs[other, R_N], fr, pm_meta, pm_aux, ar_tiles, lines)
            if best > alpha:
                alpha = best
            fr[p, F_PALPHA0] = alpha if not place_known else fr[p, F_ALPHA0]
            # the table's move first, then the rest by selection
            nfixed = 0
            if ttmv >= 0 and ttmv < n:
                for a in range(nord):
                    if pm_ord[base + a] == ttmv:
                        pm_ord[base + a] = pm_ord[base]
                        pm_ord[base] = ttmv
                        nfixed = 1
                        break
            if p == 0 and sc[SC_DEPTH] <= 2:
                # root ordering keys: the previous iteration's values (first iteration: the gain estimate)
                for j in range(n):
                    root_key[j] = pm_aux[base + j, A_GAIN] - vm + vo
            fr[p, F_ALPHA] = alpha
            fr[p, F_BEST] = best
            fr[p, F_BESTMV] = bestmv
            fr[p, F_HIT] = phit
            fr[p, F_PBEST] = pbest
            fr[p, F_PMV] = pmv
            fr[p, F_PHIT] = phit
            # no entry of the placements alone where they are none, or valued from the lines' summaries (one tile)
            fr[p, F_PLACEDONE] = 1 if (place_known or ((last_tile or n == 0) and sc[SC_OPTS] & OPT_LEAN_TABLE)) else 0
            fr[p, F_FORCED] = 1 if forced else 0
            fr[p, F_NORD] = nord
            fr[p, F_NPICK] = 0
            fr[p, F_NFIXED] = nfixed
            fr[p, F_SORTED] = 0
            fr[p, F_PASSDONE] = 1 if pass_ends else 0
            fr[p, F_NSEARCHED] = 0
            sc[SC_ACT] = ACT_NEXT
            continue

        if act == ACT_NEXT:
            if sc[SC_NODES] >= sc[SC_STOP]:
                # paused before anything of this step is done (resumed here): so a node the steps below value in
                # place (a table entry before the move, a forced pass valued at the passing node) is valued the same
                # way wherever the caller's slices end, and the node counts do not depend on them
                sc[SC_STATUS] = ST_PAUSED
                return
            mover = fr[p, F_MOVER]
            other = 1 - mover
            depth = fr[p, F_DEPTH]
            alpha = fr[p, F_ALPHA]
            beta = fr[p, F_BETA]
            base = fr[p, F_MBASE]
            n = fr[p, F_MN]
            nord = fr[p, F_NORD]
            npick = fr[p, F_NPICK]
            if (p == 0 and sc[SC_OPTS] & OPT_HELPER and npick >= 1 and sc[SC_SHARED_DEPTH] == sc[SC_DEPTH]
                    and alpha < sc[SC_SHARED_ALPHA] < beta):
                # a helper's root takes the main thread's root alpha of the same iteration (item 10): its refutations of
                # the other root moves then cost what the main thread's do
                alpha = sc[SC_SHARED_ALPHA]
                fr[0, F_ALPHA] = alpha
                sc[SC_BORROWED] = 1
                sc[SC_BORROWS] += 1
            vm = rs[mover, R_VALUE]
            vo = rs[other, R_VALUE]
            descended = False
            while npick < nord:
                if p > 0 and fr[p, F_SORTED] == 0 and npick >= fr[p, F_NFIXED] + SELECT_FIRST and nord - npick > 8:
                    # no cut-off among the first moves: the rest sorted at once (selection would be quadratic), except:
                    # a three-tile mover's rest stays in list order: its leave bounds cut nearly all of it, and a node
                    # whose moves are all cut returns the largest bound whatever their order (position 25 searched the
                    # same 5,078,726 nodes unsorted, 2 and 19 0.01-0.08 % more; 4-6 % less CPU, 7 December 2026);
                    # a four-tile mover's rest is only split, its two-tile placements first (OPT_LEAVE_INHERIT needs them
                    # all cut before a one-tile move is searched): a cut-off rarely comes after the first picks (99 % of
                    # a placement's cut-offs come from the first move searched), so the order of the one-tile moves
                    # hardly matters (0.03-0.9 % more nodes, about 4 % less CPU, 7 December 2026)
                    lo = base + npick
                    if fr[p, F_TWO_OPEN] >= 0:
                        # (a four-tile mover) the two-tile placements first: a partition, no sort
                        w = base + npick
                        for a in range(base + npick, base + nord):
                            if pm_aux[base + pm_ord[a], A_NTILES] == 2:
                                tmp = pm_ord[a]
                                pm_ord[a] = pm_ord[w]
                                pm_ord[w] = tmp
                                w += 1
                        lo = w
                    elif rs[mover, R_N] != 3:
                        _sort_by_gain(pm_ord, pm_aux, base, base + npick, base + nord)
                    fr[p, F_SORTED] = 1
                    if sc[SC_OPTS] & OPT_HELPER and depth > 2 and rs[mover, R_N] <= HELPER_REVERSE_TILES:
                        # a helper thread (threads > 1): the likely fail-low node's other moves from the other end, so
                        # the threads meet in the middle of its list, each taking the other's results from the table
                        # (after the two-tile placements that come first, above); not for a larger rack, whose long
                        # list often holds a late cut-off (HELPER_REVERSE_TILES)
                        hi = base + nord - 1
                        while lo < hi:
                            tmp = pm_ord[lo]
                            pm_ord[lo] = pm_ord[hi]
                            pm_ord[hi] = tmp
                            lo += 1
                            hi -= 1
                if npick >= fr[p, F_NFIXED] and fr[p, F_SORTED] == 0:
                    # selection: the best remaining by the ordering key
                    bi = npick
                    if p == 0:
                        # (a helper thread: after the first move, the worst remaining first; see OPT_HELPER)
                        sign = -1 if (sc[SC_OPTS] & OPT_HELPER and npick > 0) else 1
                        bk = sign * root_key[pm_ord[base + npick]]
                        for a in range(npick + 1, nord):
                            kv = sign * root_key[pm_ord[base + a]]
                            if kv > bk:
                                bk = kv
                                bi = a
                    else:
                        bk = pm_aux[base + pm_ord[base + npick], A_GAIN]
                        for a in range(npick + 1, nord):
                            kv = pm_aux[base + pm_ord[base + a], A_GAIN]
                            if kv > bk:
                                bk = kv
                                bi = a
                    if bi != npick:
                        tmp = pm_ord[base + bi]
                        pm_ord[base + bi] = pm_ord[base + npick]
                        pm_ord[base + npick] = tmp
                j = pm_ord[base + npick]
                jg = base + j
                npick += 1
                if (fr[p, F_SORTED] == 1 and npick < nord and fr[p, F_B1N] >= 0 and sc[SC_OPTS] & OPT_LEAVE_MEMO
                        and fr[p, F_EPOCH] == sc[SC_CACHE_CLEARS]):
                    # the next move's leave memo slot asked for now (a memory miss otherwise taken in full when it comes:
                    # 9 % of the CPU on position 25), while this move's bound is worked out (not when the line cache was
                    # refilled since the list was made: its tiles are listed again below)
                    jn = base + pm_ord[base + npick]
                    nt = pm_aux[jn, A_NTILES]
                    if (nt == 1 and rs[mover, R_N] == 3) or (nt == 2 and rs[mover, R_N] == 4):
                        nkey = _leave_memo_key(jn, nt == 1, mover, bkey[p], pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
                        _prefetch_row(lmemo, _leave_memo_slot(lmemo, nkey))  # type: ignore[call-arg]
                    elif nt == 1 and rs[mover, R_N] == 4:
                        # (a four-tile mover's one-tile move has no leave bound: its child's table bucket, probed first)
                        nkey = _one_tile_child_key(jn, mover, bkey[p], pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
                        _prefetch_row(tt, _tt_bucket(tt, nkey))  # type: ignore[call-arg]
                if depth == 2:
                    bound_v = pm_aux[jg, A_GAIN] - vm + vo
                    if bound_v <= alpha:
                        fr[p, F_HIT] = 1
                        fr[p, F_PHIT] = 1
                        _fail_low(fr, p, bound_v, j)
                        if p > 0 and npick > fr[p, F_NFIXED]:
                            npick = nord  # the rest have no higher gain
                        continue
                if p + 1 > max_ply:
                    sc[SC_ERROR] = ERR_PLIES
                    sc[SC_STATUS] = ST_ERROR
                    return
                if sc[SC_UNDO] + 64 > undo.shape[0]:
                    sc[SC_ERROR] = ERR_UNDO
                    sc[SC_STATUS] = ST_ERROR
                    return
                while fr[p, F_EPOCH] != sc[SC_CACHE_CLEARS]:
                    # the line cache was refilled since this list was made: the moves' tiles are gone from the
                    # arena; list them again (the same list, so the same indices)
                    fr[p, F_EPOCH] = sc[SC_CACHE_CLEARS]
                    if _collect(p, mover, base, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore,
                                lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux,
                                all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals,
                                d_scratch, sc) < 0:
                        sc[SC_STATUS] = ST_ERROR
                        return
                if fr[p, F_ON] > 0:
                    # the opponent (one tile) can go out after this move with a play it has now: the move is worth at
                    # most its score - (that play + 2 x the mover's rack after the move)
                    o = _opp_out_after(p, jg, fr, pm_meta, pm_aux, ar_tiles, letters, lines, line_len, line_dir, cell_line, cell_pos)
                    if o >= 0:
                        ub = 2 * pm_aux[jg, A_GAIN] - pm_meta[jg, 3] - o - 2 * vm
                        if ub <= alpha:
                            sc[SC_OPP_CUTS] += 1
                            _fail_low(fr, p, ub, j)
                            continue
                if fr[p, F_LEAVE] == 1:
                    # the leave bounds' data, before the first move is made (waiting for a move searched without a cut,
                    # as before December 2026, left the first move of each fail-low node to be searched: 12-15 % more nodes)
                    fr[p, F_LEAVE] = 2
                    # (the leave-two data's pass over the list keeps the one-tile bests too)
                    keep3 = rs[mover, R_N] == 3 and sc[SC_OPTS] & OPT_LEAVE_TWO and sc[SC_RACK_SIZE] > 3
                    keep4 = rs[mover, R_N] == 4 and sc[SC_OPTS] & OPT_LEAVE_TWO_FOUR and sc[SC_RACK_SIZE] > 4
                    _keep_b1(p, base, np.int64(n), mover, fr, cnt, pm_meta, pm_aux, ar_tiles, lines, sc[SC_NL], not (keep3 or keep4))
                    if keep3:
                        sc[SC_STAMP] += 1
                        _keep_leave_two(p, base, np.int64(n), mover, fr, cnt, pm_meta, pm_aux, ar_tiles, lines, sc[SC_NL], cbuf,
                                        sc[SC_STAMP])
                    if keep4:
                        sc[SC_STAMP] += 1
                        _keep_leave_two_four(p, base, np.int64(n), fr, pm_meta, pm_aux, ar_tiles, lines, sc[SC_NL], cbuf, sc[SC_STAMP])
                        if sc[SC_OPTS] & OPT_LEAVE_INHERIT:
                            n2 = 0
                            for a in range(nord):
                                if pm_aux[base + pm_ord[base + a], A_NTILES] == 2:
                                    n2 += 1
                            fr[p, F_TWO_OPEN] = n2
                            fr[p, F_TWO_MAX] = -INF
                    if (keep3 and sc[SC_OPTS] & OPT_LEAVE_INHERIT and p >= 2 and fr[p - 1, F_CUR] == PASS
                            and fr[p - 2, F_TWO_OPEN] == 0 and fr[p - 2, F_X1SQ] >= 0):
                        # below a four-tile node's one-tile move and the opponent's pass, every two-tile placement there cut
                        fr[p, F_INH_Q] = fr[p - 2, F_X1SQ]
                        fr[p, F_INH_V] = fr[p - 2, F_TWO_MAX] - fr[p - 2, F_SCORE]
                if (fr[p, F_INH_Q] >= 0 and pm_aux[jg, A_NTILES] == 2 and fr[p, F_INH_V] <= alpha
                        and not _words_hold(jg, fr[p, F_INH_Q], pm_meta, pm_aux, ar_tiles, letters, lines, line_len, line_dir,
                                            cell_line, cell_pos)):
                    # a two-tile placement that does not touch the four-tile node's one-tile move: cut there (see
                    # OPT_LEAVE_INHERIT)
                    sc[SC_INHERIT_CUTS] += 1
                    _fail_low(fr, p, fr[p, F_INH_V], j)
                    continue
                if fr[p, F_B1N] >= 0 and pm_aux[jg, A_NTILES] == rs[mover, R_N] - 1 and sc[SC_OPTS] & OPT_LEAVE_ONE:
                    # the move leaves one tile: a true bound from that tile's one-tile plays after it (see the module docstring)
                    ub = _leave_one_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask, xscore,
                                          lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, g, val, sc[SC_NL], sc[SC_FILTER],
                                          sc[SC_BINGO] if sc[SC_RACK_SIZE] == 1 else np.int64(0))
                    if ub <= alpha:
                        sc[SC_LEAVE_CUTS] += 1
                        _fail_low(fr, p, ub, j)
                        continue
                two = (fr[p, F_B1N] >= 0 and rs[mover, R_N] == 3 and pm_aux[jg, A_NTILES] == 1 and sc[SC_OPTS] & OPT_LEAVE_TWO
                       and sc[SC_RACK_SIZE] > 3)
                four = (fr[p, F_B1N] >= 0 and rs[mover, R_N] == 4 and pm_aux[jg, A_NTILES] == 2 and sc[SC_OPTS] & OPT_LEAVE_TWO_FOUR
                        and sc[SC_RACK_SIZE] > 4)
                if two or four:
                    # the move leaves two tiles: the two-tile bound after it, from the board now (see the module docstring;
                    # a three-tile mover's one-tile move or a four-tile mover's two-tile move)
                    lkey = np.int64(0)
                    if sc[SC_OPTS] & OPT_LEAVE_MEMO:
                        # the position after it, cut before when reached another way (see OPT_LEAVE_MEMO): its table key
                        lkey = _leave_memo_key(jg, two, mover, bkey[p], pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, sc)
                        mv = _leave_memo_get(lmemo, lkey)
                        if pm_meta[jg, 3] + mv <= alpha:
                            sc[SC_LEAVE_CUTS] += 1
                            sc[SC_LEAVE_MEMO_HITS] += 1
                            if four:
                                _two_tile_cut(fr, p, pm_meta[jg, 3] + mv)
                            _fail_low(fr, p, pm_meta[jg, 3] + mv, j)
                            continue
                    if two:
                        ub = _leave_two_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask, xscore,
                                              lines, line_len, cell_line, cell_pos, lmult, wmult, g, val, sc[SC_NL], sc[SC_FILTER], lh,
                                              xmemo)
                    else:
                        ub = _leave_two_four_bound(p, jg, mover, vo, alpha, fr, cnt, pm_meta, pm_aux, ar_tiles, letters, vob, xmask,
                                                   xscore, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, g, val,
                                                   sc[SC_NL], sc[SC_FILTER], lh, xmemo)
                    if ub <= alpha:
                        if lkey != 0:
                            _leave_memo_put(lmemo, lkey, ub - pm_meta[jg, 3])
                        sc[SC_LEAVE_CUTS] += 1
                        if four:
                            _two_tile_cut(fr, p, ub)
                        _fail_low(fr, p, ub, j)
                        continue
                score = pm_meta[jg, 3]
                fr[p, F_NPICK] = npick
                fr[p, F_CUR] = j
                if fr[p, F_TWO_OPEN] >= 0:
                    # (the square of the one-tile move about to be searched, for OPT_LEAVE_INHERIT below it)
                    fr[p, F_X1SQ] = _one_tile_of(jg, pm_meta, pm_aux, ar_tiles, lines)[1] if pm_aux[jg, A_NTILES] == 1 else -1
                fr[p, F_SCORE] = score
                fr[p, F_UNDO] = sc[SC_UNDO]
                if fr[p, F_NSEARCHED] == 0 or beta - alpha <= 1:
                    c_alpha, c_beta, phase = score - beta, score - alpha, 0
                else:
                    c_alpha, c_beta, phase = score - alpha - 1, score - alpha, 1
                if sc[SC_OPTS] & OPT_PROBE_FIRST:
                    # the child's table entry before the move is made: a cut-off there needs no board update
                    e_val = _probe_child(jg, mover, depth - 1, c_alpha, c_beta, bkey[p], pm_meta, pm_aux, ar_tiles, lines, zb, cnt, rs, zrw, zs, tt, sc)
                    if e_val > -INF:
                        v = score - e_val
                        if not (phase == 1 and alpha < v < beta):
                            # counted as the node it stands for (the same node counts as before); the return path
                            # finds nothing to take back
                            sc[SC_NODES] += 1
                            sc[SC_TT_CUTS] += 1
                            sc[SC_PROBE_CUTS] += 1
                            if p + 1 > sc[SC_PLY_MAX]:
                                sc[SC_PLY_MAX] = p + 1
                            fr[p, F_PHASE] = phase
                            sc[SC_PLY] = p + 1
                            sc[SC_ACT] = ACT_RETURN
                            descended = True
                            break
                _make(p, jg, mover, pm_meta, pm_aux, ar_tiles, letters, blank, vob, xmask, xscore, lines, line_len, line_dir,
                      cell_line, cell_pos, g, val, zb, lh, bkey, undo, cnt, rs, zrm, zrw, sc)
                c = p + 1
                fr[c, F_MOVER] = other
                fr[c, F_SL] = 0
                fr[c, F_DEPTH] = depth - 1
                fr[c, F_MBASE] = base + n
                fr[p, F_PHASE] = phase
                fr[c, F_ALPHA] = c_alpha
                fr[c, F_BETA] = c_beta
                sc[SC_PLY] = c
                sc[SC_ACT] = ACT_ENTER
                descended = True
                break
            if descended:
                continue
            fr[p, F_NPICK] = npick
            if fr[p, F_PLACEDONE] == 0:
                # every placement searched: their own entry (see PLACE_KEY)
                fr[p, F_PLACEDONE] = 1
                pb = fr[p, F_PBEST]
                pflag = UPPER if pb <= fr[p, F_PALPHA0] else LOWER if pb >= beta else EXACT
                _tt_store(tt, fr[p, F_KEY] ^ zs[fr[p, F_SL]] ^ zs[PLACE_KEY], depth,
                          np.int64(pflag), pb, fr[p, F_PMV], fr[p, F_PHIT], sc[SC_GEN])
            if fr[p, F_PASSDONE] == 0:
                fr[p, F_PASSDONE] = 1
                if p + 1 > max_ply:
                    sc[SC_ERROR] = ERR_PLIES
                    sc[SC_STATUS] = ST_ERROR
                    return
                fr[p, F_CUR] = PASS
                fr[p, F_SCORE] = 0
                c = p + 1
                for k in range(lh.shape[1]):
                    lh[c, k] = lh[p, k]
                bkey[c] = bkey[p]
                fr[c, F_MOVER] = other
                fr[c, F_SL] = fr[p, F_SL] + 1
                # a forced pass (no placement) costs no depth when asked (the scoreless count bounds runs of them)
                fr[c, F_DEPTH] = depth if (fr[p, F_FORCED] and sc[SC_OPTS] & OPT_FORCED_PASS_FREE) else depth - 1
                sc[SC_PASSES] += 1
                fr[c, F_MBASE] = base + n
                if fr[p, F_NSEARCHED] == 0 or beta - alpha <= 1:
                    fr[p, F_PHASE] = 0
                    fr[c, F_ALPHA] = -beta
                    fr[c, F_BETA] = -alpha
                else:
                    fr[p, F_PHASE] = 1
                    fr[c, F_ALPHA] = -alpha - 1
                    fr[c, F_BETA] = -alpha
                sc[SC_PLY] = c
                sc[SC_ACT] = ACT_ENTER
                if (fr[p, F_FORCED] == 1 and rs[other, R_N] == 1 and fr[c, F_DEPTH] >= 1
                        and sc[SC_OPTS] & OPT_STUCK_PASS and sc[SC_OPTS] & OPT_LAST_TILE):
                    # a forced pass to an opponent holding one tile: that child's value is exact at once (its pass
                    # after this forced one is valued, its placements all go out), so it is valued here from its
                    # lines' summaries, without its table entry (counted as the node it stands for)
                    if _collect(c, other, base + n, False, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore,
                                lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux,
                                all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals,
                                d_scratch, sc) < 0:
                        sc[SC_STATUS] = ST_ERROR
                        return
                    cv = vm - vo
                    if sc[SC_F_OUT_I] >= 0 and sc[SC_F_OUT_SCORE] + 2 * vm > cv:
                        cv = sc[SC_F_OUT_SCORE] + 2 * vm
                    sc[SC_NODES] += 1
                    sc[SC_LEAVES] += 1
                    if c > sc[SC_PLY_MAX]:
                        sc[SC_PLY_MAX] = c
                    fr[p, F_PHASE] = 0
                    sc[SC_RET_V] = cv
                    sc[SC_RET_H] = 0
                    sc[SC_ACT] = ACT_RETURN
                elif (fr[p, F_FORCED] == 1 and rs[other, R_N] == 2 and fr[c, F_DEPTH] >= 2
                        and sc[SC_OPTS] & OPT_STUCK_PASS and sc[SC_OPTS] & OPT_PAIR_BOUND and sc[SC_OPTS] & OPT_PASS_BOUND):
                    # a forced pass to an opponent holding two tiles: that child's two-tile bound (and exact options:
                    # going out, its pass valued after this forced one) from its list, here; when they settle it, it is
                    # not entered (counted as the node it stands for, no table entry)
                    no = _collect(c, other, base + n, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask,
                                  xscore, lmult, wmult, val, cnt, rs, lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta,
                                  pm_aux, all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab,
                                  d_rvals, d_scratch, sc)
                    if no < 0:
                        sc[SC_STATUS] = ST_ERROR
                        return
                    cbest = vm - vo
                    for a in range(no):
                        if pm_aux[base + n + a, A_NTILES] == 2 and pm_meta[base + n + a, 3] + 2 * vm > cbest:
                            cbest = pm_meta[base + n + a, 3] + 2 * vm
                    sc[SC_STAMP] += 1
                    ub = _pair_bound(other, base + n, no, pm_meta, pm_aux, ar_tiles, lines, cnt, val, vo, vm, sc[SC_NL], cbuf,
                                     sc[SC_STAMP])
                    cv = np.int64(INF)
                    if ub <= fr[c, F_ALPHA]:
                        cv = ub
                    elif ub <= cbest or cbest >= fr[c, F_BETA]:
                        cv = cbest
                    if cv < INF:
                        sc[SC_NODES] += 1
                        sc[SC_BOUND_CUTS] += 1
                        if c > sc[SC_PLY_MAX]:
                            sc[SC_PLY_MAX] = c
                        sc[SC_RET_V] = cv
                        sc[SC_RET_H] = 0
                        sc[SC_ACT] = ACT_RETURN
                continue
            # every child done: store and return
            sc[SC_ALL_NODES] += 1
            sc[SC_ALL_CHILDREN] += fr[p, F_NSEARCHED]
            best = fr[p, F_BEST]
            flag = UPPER if best <= fr[p, F_ALPHA0] else LOWER if best >= beta else EXACT
            if not (p == 0 and sc[SC_BORROWED]):  # (a root that took another thread's alpha: its value, not its move)
                _tt_store(tt, fr[p, F_KEY], depth, np.int64(flag), best, fr[p, F_BESTMV], fr[p, F_HIT], sc[SC_GEN])
            sc[SC_RET_V] = best
            sc[SC_RET_H] = fr[p, F_HIT]
            sc[SC_ACT] = ACT_RETURN
            continue

        # ACT_RETURN: the node at ply p has its value in sc[SC_RET_V] (and sc[SC_RET_H])
        if p == 0:
            rv = sc[SC_RET_V]
            if (rv <= sc[SC_WIN_LO] and sc[SC_WIN_LO] > -INF) or (rv >= sc[SC_WIN_HI] and sc[SC_WIN_HI] < INF):
                # outside the aspiration window: the same iteration again, the window open on that side
                sc[SC_RESEARCHES] += 1
                if rv <= sc[SC_WIN_LO]:
                    sc[SC_WIN_LO] = -INF
                    sc[SC_WIN_HI] = rv + 1
                else:
                    sc[SC_WIN_LO] = rv - 1
                    sc[SC_WIN_HI] = INF
                sc[SC_ACT] = ACT_ITER
                continue
            if not sc[SC_BORROWED]:
                # an iteration to the end of the game (after a jump) reports the longest line it searched
                sc[SC_DONE_DEPTH] = sc[SC_DEPTH] if sc[SC_DEPTH] < sc[SC_MAX_DEPTH] else min(sc[SC_DEPTH], sc[SC_PLY_MAX] + 1)
                fr[sc[SC_DEPTH], F_ITER_NODES] = sc[SC_NODES]
                sc[SC_VALUE] = sc[SC_RET_V]
                sc[SC_BEST] = fr[0, F_BESTMV]
                if sc[SC_RET_H] == 0:
                    sc[SC_PROVEN] = 1
                    sc[SC_STATUS] = ST_DONE
                    return
                if sc[SC_DEPTH] >= sc[SC_MAX_DEPTH]:
                    sc[SC_STATUS] = ST_DONE
                    return
            # the next iteration; a helper whose root took the main thread's alpha has no answer of its own (its root's
            # best move may only tie that alpha as a bound): it goes on, or searches the last iteration again (its table
            # entries make the repeat cheap, and it meets the main thread's newer alpha)
            sc[SC_WIN_LO] = -INF
            sc[SC_WIN_HI] = INF
            if sc[SC_DEPTH] < sc[SC_MAX_DEPTH]:
                sc[SC_DEPTH] += 1
                if sc[SC_JUMP] > 0 and sc[SC_DEPTH] > sc[SC_JUMP]:
                    sc[SC_DEPTH] = sc[SC_MAX_DEPTH]  # after the shallow iterations (ordering), one to the end of the game
                    if sc[SC_OPTS] & OPT_ASPIRATION and not sc[SC_BORROWED]:
                        sc[SC_WIN_LO] = rv - ASPIRATION
                        sc[SC_WIN_HI] = rv + ASPIRATION
            sc[SC_ACT] = ACT_ITER
            if sc[SC_OPTS] & OPT_PAUSE_ITER:
                sc[SC_STATUS] = ST_PAUSED
                return
            continue
        q = p - 1
        j = fr[q, F_CUR]
        score = fr[q, F_SCORE]
        v = score - sc[SC_RET_V]
        alpha = fr[q, F_ALPHA]
        beta = fr[q, F_BETA]
        if fr[q, F_PHASE] == 1 and alpha < v < beta:
            # the null window failed high inside the window: search the child again with it all
            fr[q, F_PHASE] = 2
            fr[p, F_ALPHA] = score - beta
            fr[p, F_BETA] = score - alpha
            sc[SC_ACT] = ACT_ENTER
            continue
        if j >= 0:
            _unmake(fr[q, F_MOVER], fr[q, F_UNDO], letters, blank, vob, xmask, xscore, val, undo, cnt, rs, zrm, zrw, sc)
        sc[SC_PLY] = q
        if sc[SC_RET_H]:
            fr[q, F_HIT] = 1
        if q == 0:
            if j >= 0:
                root_key[j] = v
            else:
                sc[SC_ROOT_PASS_KEY] = v
        fr[q, F_NSEARCHED] += 1
        if v > fr[q, F_BEST]:
            fr[q, F_BEST] = v
            fr[q, F_BESTMV] = j
            if v > alpha:
                fr[q, F_ALPHA] = v
        if j >= 0:
            if sc[SC_RET_H]:
                fr[q, F_PHIT] = 1
            if v > fr[q, F_PBEST]:
                fr[q, F_PBEST] = v
                fr[q, F_PMV] = j
        if v >= beta:
            if j < 0:
                sc[SC_CUT_PASS] += 1
            elif fr[q, F_NSEARCHED] == 1:
                sc[SC_CUT_FIRST] += 1
            else:
                sc[SC_CUT_LATER] += 1
            if j >= 0 and fr[q, F_PLACEDONE] == 0:
                fr[q, F_PLACEDONE] = 1
                _tt_store(tt, fr[q, F_KEY] ^ zs[fr[q, F_SL]] ^ zs[PLACE_KEY], fr[q, F_DEPTH], np.int64(LOWER), fr[q, F_PBEST],
                          fr[q, F_PMV], fr[q, F_PHIT], sc[SC_GEN])
            _tt_store(tt, fr[q, F_KEY], fr[q, F_DEPTH], np.int64(LOWER), fr[q, F_BEST],
                      fr[q, F_BESTMV], fr[q, F_HIT], sc[SC_GEN])
            sc[SC_RET_V] = fr[q, F_BEST]
            sc[SC_RET_H] = fr[q, F_HIT]
            sc[SC_ACT] = ACT_RETURN
            continue
        sc[SC_ACT] = ACT_NEXT


@njit(cache=True)
def _play_and_list(g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val, zb, zrm, zrw, zs, zline,
                   letters, blank, vob, xmask, xscore, lh, bkey, undo, cnt, rs, pm_meta, pm_aux,
                   ci, lslot, ar_meta, ar_tiles, ar_aux, tt,
                   all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc,
                   choices):
    """From the root the players (alternately, from the root's mover) play ``choices[r]`` (an index in
    the assembled list, -1 a pass); then the moves of the player to move are listed. Returns their
    count; the list is in the move buffer from ``sc[SC_ROOT_N]``; ``sc[SC_LIST_TT]`` is the table's
    best move there (-2: no entry) and ``sc[SC_LIST_OUT]`` 1 when a choice emptied a rack (the rest
    ignored). Every move is taken back afterwards."""
    mover = sc[SC_ROOT_MOVER]
    sl = sc[SC_ROOT_SL]
    base = np.int64(0)
    made = np.zeros(choices.shape[0], np.int64)
    made_undo = np.zeros(choices.shape[0], np.int64)
    made_mover = np.zeros(choices.shape[0], np.int64)
    n_made = 0
    p = np.int64(0)
    sc[SC_LIST_OUT] = 0
    for r in range(choices.shape[0]):
        c = choices[r]
        if c >= 0:
            n = _collect(p, mover, base, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult, val, cnt, rs,
                          lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux,
                          all_anchor, lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals,
                          d_scratch, sc)
            if c >= n:
                break
            jg = base + c
            if pm_aux[jg, A_NTILES] == rs[mover, R_N]:
                sc[SC_LIST_OUT] = 1
                break
            made[n_made] = jg
            made_undo[n_made] = sc[SC_UNDO]
            made_mover[n_made] = mover
            n_made += 1
            _make(p, jg, mover, pm_meta, pm_aux, ar_tiles, letters, blank, vob, xmask, xscore, lines, line_len, line_dir, cell_line,
                  cell_pos, g, val, zb, lh, bkey, undo, cnt, rs, zrm, zrw, sc)
            base += n
            sl = np.int64(0)
        else:
            for k in range(lh.shape[1]):
                lh[p + 1, k] = lh[p, k]
            bkey[p + 1] = bkey[p]
            sl += 1
        p += 1
        mover = 1 - mover
    key = bkey[p] ^ rs[mover, R_HASH_MOVE] ^ rs[1 - mover, R_HASH_WAIT] ^ zs[sl] ^ sc[SC_SALT]
    info = _tt_probe(tt, key)
    sc[SC_LIST_TT] = _tt_move(info) if info != 0 else NO_MOVE
    n = _collect(p, mover, base, True, g, lines, line_len, line_dir, cell_line, cell_pos, letters, vob, xmask, xscore, lmult, wmult, val, cnt, rs,
                  lh, zline, ci, lslot, ar_meta, ar_tiles, ar_aux, pm_meta, pm_aux, all_anchor,
                  lin_all, work, word, mctx, bound, mframes, rackbuf, arange_, d_ub, d_ab, d_rvals, d_scratch, sc)
    sc[SC_ROOT_N] = base
    for i in range(n_made - 1, -1, -1):
        _unmake(made_mover[i], made_undo[i], letters, blank, vob, xmask, xscore, val, undo, cnt, rs, zrm, zrw, sc)
    return n
