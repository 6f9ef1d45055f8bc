#!/usr/bin/env python3
"""Reading a store's past, each figure beside its git peer in one run (issue 42's speed rows).

A rowing store (seed 004's schema, `Data/Rowing/folio.json`) of N `PerformanceMetric`
strokes in sessions of 720, committed to git as a year of daily commits (one commit per day,
each adding that day's strokes). Then, each row a new process, warm page cache, the two
sides taking turns, median of --runs:

- `folio log` of one stroke, beside `git log` with a pathspec for its file name;
- `folio diff REV1 REV2` of two neighbouring days, beside `git diff --name-only` plus one
  `git cat-file --batch` of the changed files' two versions;
- the first `folio count --at REV` of one session (no copy kept yet), beside `git ls-tree`
  plus one `git cat-file --batch` of that revision's blobs of the entity;
- `folio count --at` the neighbouring revision after one at REV (the copy is taken over),
  beside today's working-tree `folio count`;
- `folio count --at REV` again (the copy is kept), beside the same.

Peak memory is each process's ru_maxrss (from wait4). Run at the repository's root, after
`swift build -c release --product folio`:

    python3 Benchmarks/Scripts/past_benchmark.py [--documents 200000] [--days 365] [--runs 5]

`--rows diff` (or `log`, `first-count`, `neighbour-count`, `kept-count`, comma-separated) runs only
those rows; `--scratch FOLDER` builds the store there instead of the system's temporary folder.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid

SESSION_STROKES = 720
ROW_KEYS = ["log", "diff", "first-count", "neighbour-count", "kept-count"]


def timed(arguments, cwd, stdin=None):
    """Runs a process and reaps it with wait4, for its own time and peak memory."""
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryFile() as given:
        if stdin is not None:
            given.write(stdin)
            given.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen(
            arguments, cwd=cwd, stdin=given if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=errors)
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(arguments)} failed ({process.returncode}): {errors.read().decode()[:500]}")
    return seconds, usage.ru_maxrss / 1024, output


def stroke(day, index, session):
    """One stroke document as Folio writes it, for a day of the year 2026."""
    moment = datetime.datetime(2026, 1, 1, 6, 0, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        days=day, seconds=index * 2.4)
    identifier = str(uuid.UUID(int=random.getrandbits(128), version=4)).upper()
    document = {
        "$entity": "PerformanceMetric", "$version": "1.0.0", "id": identifier, "sessionID": session,
        "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%SZ"), "distance": round(index * 10.5, 1),
        "pace": round(random.uniform(100, 140), 1), "strokeRate": random.randint(18, 34),
        "power": round(random.uniform(120, 260), 1), "strokeCount": index,
        "heartRate": random.randint(110, 180), "strokePhase": random.choice(["catch", "drive", "finish", "recovery"]),
        "driveTime": round(random.uniform(0.6, 0.9), 2), "recoveryTime": round(random.uniform(1.5, 2.5), 2),
        "strokeLength": round(random.uniform(1.2, 1.5), 2), "peakForce": round(random.uniform(600, 800), 1),
        "averageForce": round(random.uniform(350, 450), 1), "workPerStroke": round(random.uniform(400, 520), 1),
        "session": None,
    }
    folder = f"PerformanceMetric/2026/{moment.month:02}/{moment.day:02}"
    return identifier, folder, json.dumps(document, indent=2) + "\n"


def build(root, folio, documents, days):
    """The store, committed as a year of daily commits; returns facts the rows need.

    The files are written to the work tree as Folio writes them, and the commits are made
    with one `git fast-import` (each day's commit adding that day's files), then the index
    is read from the last commit: the same commits `git add -A` and `git commit` each day
    would make, without refreshing an index of up to 200,000 files 365 times (22 minutes).
    """
    store = os.path.join(root, "Rowing")
    subprocess.run([folio, "init", store, "--time-zone", "UTC", "--schema", "Data/Rowing/folio.json"],
                   check=True, stdout=subprocess.DEVNULL)
    git = ["git", "-c", "user.name=Bench", "-c", "user.email=bench@folio.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(git + ["init", "-q", "--initial-branch=main", "."], cwd=store, check=True)
    subprocess.run(git + ["add", "-A"], cwd=store, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "the store"], cwd=store, check=True)
    importer = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=store, stdin=subprocess.PIPE)
    per_day = documents // days
    strokes_of_session = {}
    session = None
    written = 0
    picked = None
    started = time.perf_counter()
    for day in range(days):
        count = per_day + (1 if day < documents % days else 0)
        moment = int((datetime.datetime(2026, 1, 1, 20, 0, tzinfo=datetime.timezone.utc)
                      + datetime.timedelta(days=day)).timestamp())
        message = f"day {day + 1}\n".encode()
        importer.stdin.write(
            b"commit refs/heads/main\n"
            + f"author Bench <bench@folio.invalid> {moment} +0000\n".encode()
            + f"committer Bench <bench@folio.invalid> {moment} +0000\n".encode()
            + f"data {len(message)}\n".encode() + message
            + (b"from refs/heads/main^0\n" if day == 0 else b""))
        for index in range(count):
            if written % SESSION_STROKES == 0:
                session = str(uuid.UUID(int=random.getrandbits(128), version=4)).upper()
            identifier, folder, text = stroke(day, index, session)
            os.makedirs(os.path.join(store, folder), exist_ok=True)
            with open(os.path.join(store, folder, identifier + ".json"), "w") as file:
                file.write(text)
            data = text.encode()
            importer.stdin.write(f"M 100644 inline {folder}/{identifier}.json\ndata {len(data)}\n".encode() + data
                                 + b"\n")
            strokes_of_session.setdefault(session, []).append(day)
            if day == days // 2 and picked is None:
                picked = identifier
            written += 1
        importer.stdin.write(b"\n")
        if day % 30 == 29:
            print(f"  built {day + 1} days, {written} strokes, {time.perf_counter() - started:.0f} s", flush=True)
    importer.stdin.close()
    if importer.wait() != 0:
        raise SystemExit("git fast-import failed")
    subprocess.run(git + ["reset", "-q"], cwd=store, check=True)
    if subprocess.run(["git", "status", "--porcelain"], cwd=store, capture_output=True, check=True).stdout:
        raise SystemExit("the work tree differs from the last commit")
    # A session that ended well before the last ten days, so every revision read holds all of it.
    old_session = next(s for s, d in strokes_of_session.items() if max(d) < days - 20 and len(d) == SESSION_STROKES)
    return store, picked, old_session


def measure(rows, runs):
    """Each row's two sides in turns, `runs` times; returns the medians."""
    results = []
    for name, folio_side, peer_side, prepare in rows:
        folio_times, folio_peaks, peer_times, peer_peaks = [], [], [], []
        for _ in range(runs):
            if prepare:
                prepare()
            seconds, peak = folio_side()
            folio_times.append(seconds)
            folio_peaks.append(peak)
            seconds, peak = peer_side()
            peer_times.append(seconds)
            peer_peaks.append(peak)
        result = (name, statistics.median(folio_times), statistics.median(peer_times), max(folio_peaks),
                  max(peer_peaks))
        print(f"  {name}: folio {result[1]:.3f} s, peer {result[2]:.3f} s", flush=True)
        results.append(result)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--documents", type=int, default=200000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--folio", default=".build/release/folio")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--rows", default=",".join(ROW_KEYS),
                        help=f"the rows to run, comma-separated, of {', '.join(ROW_KEYS)}")
    parser.add_argument("--scratch", default=None, help="the folder to build the store in")
    options = parser.parse_args()
    wanted_rows = options.rows.split(",")
    if unknown := [key for key in wanted_rows if key not in ROW_KEYS]:
        parser.error(f"no row {', '.join(unknown)}; the rows are {', '.join(ROW_KEYS)}")
    folio = os.path.abspath(options.folio)
    random.seed(42)
    if options.scratch:
        os.makedirs(options.scratch, exist_ok=True)
    root = tempfile.mkdtemp(prefix="past-benchmark-", dir=options.scratch)
    try:
        print(f"building {options.documents} strokes in {options.days} daily commits in {root}", flush=True)
        store, stroke_id, session = build(root, folio, options.documents, options.days)
        count_query = ["PerformanceMetric", f'sessionID == "{session}"']
        expected = subprocess.run([folio, "count"] + count_query, cwd=store, capture_output=True,
                                  check=True).stdout  # warms the working tree's cache, as a person's store is
        stroke_file = subprocess.run(["git", "ls-files", f"*{stroke_id}.json"], cwd=store, capture_output=True,
                                     check=True, text=True).stdout.strip()

        def folio_run(*arguments, check=None):
            def side():
                seconds, peak, output = timed([folio] + list(arguments), store)
                if check is not None and output != check:
                    raise SystemExit(f"folio {' '.join(arguments)} printed {output!r}, not {check!r}")
                return seconds, peak
            return side

        def git_log():
            seconds, peak, _ = timed(["git", "log", "--format=%H%x09%an%x09%aI%x09%s", "--",
                                      f":(glob)**/{stroke_id}.json"], store)
            return seconds, peak

        def git_diff():
            seconds, peak, names = timed(["git", "diff", "--name-only", "HEAD~11", "HEAD~10"], store)
            wanted = "".join(f"HEAD~11:{name}\nHEAD~10:{name}\n" for name in names.decode().split("\n") if name)
            more, peak2, _ = timed(["git", "cat-file", "--batch"], store, stdin=wanted.encode())
            return seconds + more, max(peak, peak2)

        def git_blobs():
            seconds, peak, listing = timed(["git", "ls-tree", "-r", "HEAD~10:PerformanceMetric"], store)
            ids = "".join(line.split()[2] + "\n" for line in listing.decode().split("\n") if line)
            more, peak2, _ = timed(["git", "cat-file", "--batch"], store, stdin=ids.encode())
            return seconds + more, max(peak, peak2)

        copies = os.path.join(store, ".folio", "revisions")

        def no_copies():
            shutil.rmtree(copies, ignore_errors=True)

        def copy_of_neighbour():
            subprocess.run([folio, "count"] + count_query + ["--at", "HEAD~11"], cwd=store, check=True,
                           stdout=subprocess.DEVNULL)

        rows = [
            ("log of one stroke vs git log with a pathspec", folio_run("log", stroke_file, "--format", "ndjson"),
             git_log, None),
            ("diff of two neighbouring days vs git diff --name-only + cat-file --batch",
             folio_run("diff", "HEAD~11", "HEAD~10", "--format", "ndjson"), git_diff, None),
            ("first count --at REV of one session vs ls-tree + cat-file --batch of the entity",
             folio_run(*(["count"] + count_query + ["--at", "HEAD~10"]), check=expected), git_blobs, no_copies),
            ("count --at the neighbouring revision vs working-tree count",
             folio_run(*(["count"] + count_query + ["--at", "HEAD~10"]), check=expected),
             folio_run(*(["count"] + count_query), check=expected), copy_of_neighbour),
            ("count --at REV again vs working-tree count",
             folio_run(*(["count"] + count_query + ["--at", "HEAD~10"]), check=expected),
             folio_run(*(["count"] + count_query), check=expected), None),
        ]
        rows = [row for key, row in zip(ROW_KEYS, rows) if key in wanted_rows]
        results = measure(rows, options.runs)
        print()
        print(f"{options.documents} strokes, {options.days} daily commits, median of {options.runs}, "
              f"{datetime.date.today()}")
        print()
        print("| row | Folio | peer | ratio | Folio peak | peer peak |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, mine, theirs, my_peak, their_peak in results:
            print(f"| {name} | {mine:.3f} s | {theirs:.3f} s | {mine / theirs:.2f}x | {my_peak:.0f} MB | "
                  f"{their_peak:.0f} MB |")
    finally:
        if options.keep:
            print(f"kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
