#!/usr/bin/env python3
"""The peers of Folio's query benchmark: SQLite (indexed and not), TinyDB, jq over the
store's own files, and recsel over the same records in a .rec file.

Run by `query-benchmark` (Benchmarks/Sources/query-benchmark), which writes the records
as NDJSON, the queries' parameters as JSON, and reads the figures this prints as JSON.
Each query is timed around the query alone for SQLite and TinyDB (in process), and as a
whole process for jq and recsel. Every peer's answer is returned so the caller can check
it equals Folio's.
"""
import importlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time


def ensure_tools():
    """Installs TinyDB from PyPI (into Benchmarks/.build/python) and recutils and jq from
    Debian when they are missing."""
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "python")
    sys.path.insert(0, target)
    try:
        import tinydb  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--root-user-action=ignore", "--target", target, "tinydb"], check=True)
        importlib.invalidate_caches()
    if shutil.which("recsel") is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "recutils"], check=True, stdout=subprocess.DEVNULL)
    if shutil.which("jq") is None:
        subprocess.run(["apt-get", "install", "-y", "-qq", "jq"], check=True, stdout=subprocess.DEVNULL)


def timed(repetitions, body):
    times, answer = [], None
    for _ in range(repetitions):
        start = time.perf_counter_ns()
        answer = body()
        times.append((time.perf_counter_ns() - start) / 1e9)
    return {"median": statistics.median(times), "answer": answer}


def sqlite_peer(records, work, params, indexed, repetitions):
    path = os.path.join(work, "indexed.db" if indexed else "plain.db")
    db = sqlite3.connect(path)
    key = "PRIMARY KEY" if indexed else ""
    db.execute(f"CREATE TABLE session (id TEXT {key}, startTime TEXT, endTime TEXT, state TEXT, duration REAL, pausedDuration REAL, createdAt TEXT)")
    db.executemany("INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?)",
                   [(r["id"], r["startTime"], r["endTime"], r["state"], r["duration"], r["pausedDuration"], r["createdAt"]) for r in records])
    if indexed:
        db.execute("CREATE INDEX session_state ON session (state)")
        db.execute("CREATE INDEX session_start ON session (startTime)")
    db.commit()
    queries = {
        "point": lambda: [row[0] for row in db.execute("SELECT * FROM session WHERE id = ?", (params["id"],)).fetchall()],
        # Whole rows, as Folio's fetch returns whole models; the ids are returned in the
        # order found and compared as sets by the caller, as Folio's are.
        "indexed": lambda: [row[0] for row in db.execute("SELECT * FROM session WHERE state = ?", (params["state"],)).fetchall()],
        "countIndexed": lambda: db.execute("SELECT COUNT(*) FROM session WHERE state = ?", (params["state"],)).fetchone()[0],
        "unindexed": lambda: [row[0] for row in db.execute("SELECT * FROM session WHERE pausedDuration = ?", (params["pausedDuration"],)).fetchall()],
        "range": lambda: len(db.execute("SELECT * FROM session WHERE startTime >= ? AND startTime < ?", (params["from"], params["to"])).fetchall()),
        "latest": lambda: [row[0] for row in db.execute("SELECT * FROM session ORDER BY startTime DESC LIMIT 20").fetchall()],
        "countByState": lambda: dict(db.execute("SELECT state, COUNT(*) FROM session GROUP BY state").fetchall()),
    }
    result = {name: timed(repetitions, query) for name, query in queries.items()}
    db.close()
    return result


def tinydb_peer(records, work, params, repetitions):
    from tinydb import Query, TinyDB
    path = os.path.join(work, "tinydb.json")
    loader = TinyDB(path)
    loader.insert_multiple(records)
    loader.close()
    # TinyDB caches query results; without the cache every query reads the file, as it
    # does the first time it is asked anything. The table is made before any other use,
    # as TinyDB keeps the first one it makes.
    db = TinyDB(path)
    table = db.table("_default", cache_size=0)
    session = Query()
    queries = {
        "point": lambda: [r["id"] for r in table.search(session.id == params["id"])],
        "indexed": lambda: [r["id"] for r in table.search(session.state == params["state"])],
        "countIndexed": lambda: table.count(session.state == params["state"]),
        "unindexed": lambda: [r["id"] for r in table.search(session.pausedDuration == params["pausedDuration"])],
        "range": lambda: len(table.search((session.startTime >= params["from"]) & (session.startTime < params["to"]))),
        "latest": lambda: [r["id"] for r in sorted(table.all(), key=lambda r: r["startTime"], reverse=True)[:20]],
        "countByState": lambda: count_by_state(table.all()),
    }
    result = {name: timed(repetitions, query) for name, query in queries.items()}
    db.close()
    return result


def count_by_state(rows):
    counts = {}
    for row in rows:
        counts[row["state"]] = counts.get(row["state"], 0) + 1
    return counts


def run(command, shell=False):
    return subprocess.run(command, shell=shell, check=True, capture_output=True, text=True).stdout


def jq_peer(store, params, repetitions):
    # Every document of the tree, concatenated into one stream that one jq process reads.
    stream = f"find {store}/FocusSession -name '*.json' -print0 | xargs -0 cat | jq -c "
    queries = {
        "point": (f"'select(.id == \"{params['id']}\") | .id'", lambda out: [json.loads(l) for l in out.split()]),
        "indexed": (f"'select(.state == \"{params['state']}\") | .id'", lambda out: sorted(json.loads(l) for l in out.split())),
        "countIndexed": (f"-s 'map(select(.state == \"{params['state']}\")) | length'", lambda out: int(out)),
        "unindexed": (f"'select(.pausedDuration == {params['pausedDuration']}) | .id'", lambda out: sorted(json.loads(l) for l in out.split())),
        "range": (f"'select(.startTime >= \"{params['from']}\" and .startTime < \"{params['to']}\") | .id'", lambda out: len(out.split())),
        "latest": ("-s '[.[] | {id, startTime}] | sort_by(.startTime) | reverse | .[:20] | .[].id'", lambda out: [json.loads(l) for l in out.split()]),
        "countByState": ("-s 'group_by(.state) | map({(.[0].state): length}) | add'", lambda out: json.loads(out)),
    }
    return {name: timed(repetitions, lambda f=filter, p=parse: p(run(stream + f, shell=True))) for name, (filter, parse) in queries.items()}


def recsel_peer(records, work, params, repetitions):
    path = os.path.join(work, "sessions.rec")
    with open(path, "w") as rec:
        # No `%type: startTime date`: typed dates make `recsel -S` about 4x slower, and the
        # ISO text sorts and compares (`<<`) the same without it.
        rec.write("%rec: Session\n%key: id\n\n")
        for r in records:
            rec.write(f"id: {r['id']}\nstartTime: {r['startTime']}\n")
            if r["endTime"] is not None:
                rec.write(f"endTime: {r['endTime']}\n")
            rec.write(f"state: {r['state']}\nduration: {r['duration']:g}\npausedDuration: {r['pausedDuration']:g}\ncreatedAt: {r['createdAt']}\n\n")
    ids = lambda out: sorted(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("id: "))
    queries = {
        "point": (["recsel", "-e", f"id = '{params['id']}'", "-p", "id", path], ids),
        "indexed": (["recsel", "-e", f"state = '{params['state']}'", "-p", "id", path], ids),
        "countIndexed": (["recsel", "-c", "-e", f"state = '{params['state']}'", path], lambda out: int(out)),
        "unindexed": (["recsel", "-e", f"pausedDuration = {params['pausedDuration']}", "-p", "id", path], ids),
        "range": (["recsel", "-c", "-e", f"!(startTime << '{params['from']}') && startTime << '{params['to']}'", path], lambda out: int(out)),
        "latest": (["recsel", "-S", "startTime", "-p", "id", path], lambda out: list(reversed(ids_in_order(out)))[:20]),
        "countByState": (["recsel", "-G", "state", "-p", "state,Count(id)", path], counts_from_rec),
    }
    return {name: timed(repetitions, lambda c=command, p=parse: p(run(c))) for name, (command, parse) in queries.items()}


def ids_in_order(out):
    return [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("id: ")]


def counts_from_rec(out):
    counts, state = {}, None
    for line in out.splitlines():
        if line.startswith("state: "):
            state = line.split(": ", 1)[1]
        elif line.startswith("Count_id: ") and state is not None:
            counts[state] = int(line.split(": ", 1)[1])
    return counts


def main():
    records_path, store, work, params_path, repetitions = sys.argv[1:6]
    repetitions = int(repetitions)
    ensure_tools()
    with open(records_path) as lines:
        records = [json.loads(line) for line in lines]
    with open(params_path) as file:
        params = json.load(file)
    slow = max(1, repetitions // 3) if len(records) > 20_000 else repetitions
    results = {
        "sqlite indexed": sqlite_peer(records, work, params, True, repetitions),
        "sqlite unindexed": sqlite_peer(records, work, params, False, repetitions),
        "tinydb": tinydb_peer(records, work, params, slow),
        "jq": jq_peer(store, params, slow),
        "recsel": recsel_peer(records, work, params, slow),
    }
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
