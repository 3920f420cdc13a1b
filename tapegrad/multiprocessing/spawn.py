"""``spawn``/``start_processes``: run ``fn(i, *args)`` in ``nprocs`` worker processes, and when
one fails, stop the others and raise its error in the parent with the worker's traceback."""

import multiprocessing
import multiprocessing.connection
import os
import signal
import tempfile
import traceback
import warnings

__all__ = ["ProcessContext", "ProcessException", "ProcessExitedException",
           "ProcessRaisedException", "spawn", "start_processes"]


class ProcessException(Exception):
    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg)
        self.msg, self.error_index, self.error_pid = msg, error_index, error_pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.error_pid)


class ProcessRaisedException(ProcessException):
    """A worker raised an exception; its traceback is part of the message."""


class ProcessExitedException(ProcessException):
    """A worker exited with a nonzero code or was killed by a signal."""

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code, self.signal_name = exit_code, signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.error_pid, self.exit_code,
                            self.signal_name)


def _run_worker(fn, index, args, error_file):
    """A worker's body: the traceback of an exception is written to ``error_file`` for the
    parent (a file, not a pipe: a deep traceback could fill a pipe nobody reads yet)."""
    try:
        fn(index, *args)
    except KeyboardInterrupt:
        pass  # the parent stopped this worker
    except Exception:  # noqa: BLE001  (any error is reported, then the worker fails)
        with open(error_file, "w", encoding="utf-8") as file:
            file.write(traceback.format_exc())
        raise SystemExit(1)


class ProcessContext:
    """The started workers; ``join`` waits for them and raises the first failure."""

    def __init__(self, processes, error_files):
        self.processes = processes
        self.error_files = error_files
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        return [int(p.pid) for p in self.processes]

    def join(self, timeout=None, grace_period=None):
        """Wait up to ``timeout`` s for a worker to finish. True once all have finished; False
        while some still run. If one failed, the others are terminated and its error raised."""
        if not self.sentinels:
            return True
        failed = None
        for sentinel in multiprocessing.connection.wait(self.sentinels, timeout=timeout):
            index = self.sentinels.pop(sentinel)
            self.processes[index].join()
            if self.processes[index].exitcode != 0:
                failed = index
                break
        if failed is None:
            if self.sentinels:
                return False
            self._remove_error_files()
            return True
        self._stop_others(grace_period)
        error = self._error(failed)
        self._remove_error_files()
        raise error

    def _remove_error_files(self):
        for path in self.error_files:
            if os.path.exists(path):
                os.unlink(path)

    def _stop_others(self, grace_period):
        if grace_period is not None:
            for process in self.processes:
                process.join(grace_period)
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(30 if grace_period is None else grace_period)
            if process.is_alive():
                process.kill()
                process.join()

    def _error(self, index):
        process = self.processes[index]
        with open(self.error_files[index], encoding="utf-8") as file:
            trace = file.read()
        if trace:
            return ProcessRaisedException(
                f"\n\n-- Process {index:d} terminated with the following error:\n{trace}",
                index, process.pid)
        code = process.exitcode
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"<Unknown signal {-code}>"
            return ProcessExitedException(f"process {index:d} terminated with signal {name}",
                                          index, process.pid, code, name)
        return ProcessExitedException(f"process {index:d} terminated with exit code {code:d}",
                                      index, process.pid, code)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Start ``nprocs`` processes running ``fn(i, *args)`` with the given start method; wait for
    them (``join=True``, returns None) or return their ``ProcessContext``."""
    context = multiprocessing.get_context(start_method)
    processes, error_files = [], []
    for index in range(nprocs):
        descriptor, error_file = tempfile.mkstemp(prefix="tapegrad-worker-error-")
        os.close(descriptor)
        process = context.Process(target=_run_worker, args=(fn, index, args, error_file),
                                  daemon=daemon)
        process.start()
        processes.append(process)
        error_files.append(error_file)
    workers = ProcessContext(processes, error_files)
    if not join:
        return workers
    while not workers.join():
        pass


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """``start_processes`` with the ``spawn`` start method (the only one it uses)."""
    if start_method != "spawn":
        warnings.warn(f"This method only supports start_method=spawn (got: {start_method}).\n"
                      "To use a different start_method use:\n\t\t"
                      " torch.multiprocessing.start_processes(...)", FutureWarning, stacklevel=2)
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")
