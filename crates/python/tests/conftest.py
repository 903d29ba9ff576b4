import skitgubbe


def cases():
    """(preset, players) for every preset: its fewest players, and three
    where the preset allows it."""
    out = []
    for name, lo, hi in skitgubbe.PLAYERS:
        for n in sorted({lo, min(max(lo, 3), hi)}):
            out.append((name, n))
    return out
