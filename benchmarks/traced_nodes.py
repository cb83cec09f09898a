"""A traced engine search of Connect Four visits the nodes the untraced one does."""
import time
from collections import Counter
import plies
from plies.games import load

game = load("connect4")
state = game.initial_state()
for depth in (6, 8, 10):
    t = time.perf_counter(); plain = plies.alphabeta(game, state, plies.Limit(depth=depth), tt=True, ordering=True, pvs=True); t1 = time.perf_counter() - t
    events = []
    t = time.perf_counter(); traced = plies.alphabeta(game, state, plies.Limit(depth=depth), tt=True, ordering=True, pvs=True, trace=events.append); t2 = time.perf_counter() - t
    kinds = Counter(e.kind for e in events)
    print(f"| {depth} | {plain.stats.nodes:,} | {traced.stats.nodes:,} | {kinds['enter']:,} | {plain.value} / {traced.value} | {game.format_action(state, plain.action)} / {game.format_action(state, traced.action)} | {kinds['table']:,} | {kinds['order']:,} | {kinds['research']:,} | {t1:.2f} / {t2:.2f} |")
