# SPDX-License-Identifier: MIT
"""spoor: read CTF traces (spoor's own and LTTng's) from Python (docs/python.md).

    import spoor
    t = spoor.open("trace-dir")                 # or a list of paths, or a folder of traces
    for ev in t.events(names=["sched_switch"]):  # in time order
        print(ev.ts, ev.cpu, ev.name, ev["next_tid"])
    cols = t.columns("sched_switch", ["ts", "prev_tid", "next_tid"])  # NumPy arrays
    rows = t.sql("SELECT name, count(*) FROM events GROUP BY name")
    for p in t.parts():                          # independent pieces, e.g. a task each
        t.columns("sched_switch", ["ts"], part=p)

Damage met while reading (a corrupt packet, a file cut short) ends the damaged stream only:
it is reported as a spoor.DamageWarning (warnings.warn), or raised as spoor.Error with
strict=True. A trace that cannot be opened raises spoor.Error with the reader's message.
"""
import os
from collections import namedtuple

from . import _spoor
from ._spoor import DamageWarning, Error

__all__ = ["open", "Trace", "Part", "Error", "DamageWarning"]


class Part(namedtuple("Part", "trace stream offset size begin end packets")):
    """A piece of a trace that reads alone: packets [offset, offset + size) of one stream
    file of one trace, spanning begin to end (ns from the clock origin; None when the
    packets do not say). Picklable; Trace.events(part=p) and Trace.columns(..., part=p)
    read it, and so does spoor.open(p.trace) in another process."""

    __slots__ = ()

    def _source(self):
        return (self.trace, self.stream, self.offset, self.offset + self.size)


class Trace:
    """One or several traces, read as one (their events merged in time order). Every call
    reads the traces anew, with a reader of its own: iterations do not disturb each
    other."""

    def __init__(self, paths):
        if isinstance(paths, Part):
            paths = [paths.trace]
        many = not isinstance(paths, (str, bytes, os.PathLike))
        # absolute: parts name files, read from another folder (or process) too
        self.paths = [os.path.abspath(os.fsdecode(p)) for p in (paths if many else [paths])]
        self._db = None
        # open once now, so that a path that is not a trace fails here
        _spoor.events(self.paths)

    def __repr__(self):
        return "spoor.open(%r)" % (self.paths if len(self.paths) > 1 else self.paths[0])

    def events(self, names=None, begin=None, end=None, part=None, strict=False):
        """Events in time order: ev.name, ev.ts (ns from the clock origin), ev.cpu, ev.tid,
        ev.pid, ev.comm (None when unknown), ev["field"] (payload, then contexts),
        ev.fields() (a dict). names: a name or names to keep; begin, end: ns, inclusive.
        An event's fields, pid and comm are read while it is the current one."""
        return _spoor.events(self.paths, names=names, begin=begin, end=end,
                             part=_part_source(part), strict=strict)

    def columns(self, cls, columns, part=None, begin=None, end=None, strict=False):
        """{column: NumPy array} of the events of class `cls`, in time order, filled in one
        pass: integers int64 (uint64 for unsigned 64-bit fields), floats float64, text an
        object array of str. "ts" and "cpu" are the event's time and CPU (-1: unknown)."""
        if isinstance(columns, str):
            columns = [columns]
        return _spoor.columns(self.paths, cls, list(columns), part=_part_source(part),
                              begin=begin, end=end, strict=strict)

    def _database(self):
        if self._db is None:
            self._db = _spoor.Database(self.paths)
        return self._db

    def sql(self, query, params=None, strict=False):
        """The rows (tuples) of a query on the traces' tables (docs/sql.md); several
        statements run in order and the last one's rows come back. params: values for
        the query's ? placeholders."""
        return self._database().query(query, params, strict)[1]

    def sql_df(self, query, params=None, strict=False):
        """The same as a pandas DataFrame, its columns named as the query names them."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Trace.sql_df needs pandas (Debian: apt install "
                              "python3-pandas); Trace.sql gives the rows without it") from e
        names, rows = self._database().query(query, params, strict)
        return pandas.DataFrame.from_records(rows, columns=list(names))

    def sql_io(self):
        """What the queries so far read: bytes and packets, and of them those stepped over
        (a time range pushed down), and events."""
        return self._database().io()

    def parts(self, max_bytes=64 << 20, strict=False):
        """Independent pieces of the traces: each stream's packets, in order, grouped into
        parts of at most max_bytes (a packet bigger than that is a part of its own). Every
        event is in exactly one part; a part's events are its stream's, in time order."""
        out = []
        for trace, stream, packets in _spoor.packets(self.paths, strict=strict):
            group = []
            for pk in packets:
                if group and pk[0] + pk[1] - group[0][0] > max_bytes:
                    out.append(_part_of(trace, stream, group))
                    group = []
                group.append(pk)
            if group:
                out.append(_part_of(trace, stream, group))
        return out

    def close(self):
        """Let the SQL database go (the other calls keep nothing open)."""
        if self._db is not None:
            self._db.close()
            self._db = None


def _part_of(trace, stream, packets):
    first, last = packets[0], packets[-1]
    return Part(trace, stream, first[0], last[0] + last[1] - first[0], first[2], last[3],
                len(packets))


def _part_source(part):
    if part is None:
        return None
    if not isinstance(part, Part):
        raise TypeError("part must be one of Trace.parts()")
    return part._source()


def open(paths):
    """A Trace of a trace directory, a folder of traces, or a list of them."""
    return Trace(paths)
