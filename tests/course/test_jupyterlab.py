"""A real JupyterLab serves the course: the page loads, the notebooks are listed, a kernel runs them.

Starts the project's ``jupyter lab`` on 127.0.0.1 (free port, token, notebooks/ as root), then
over HTTP and the kernel's websocket: /lab answers 200, the contents API lists the notebooks
in course order, and a kernel started for notebook 01 runs ``import pe_utils`` and the
notebook's first code cell. The server and every process it started are stopped at the end.
"""

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import nbformat
import psutil
import pytest
import websocket

from tools.paths import NOTEBOOKS, course_notebooks

STARTUP_SECONDS = 60
EXECUTE_SECONDS = 60


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Lab:
    """A running ``jupyter lab`` and the few REST calls the test needs."""

    def __init__(self, tmp_path):
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / "jupyterlab.log"
        env = {key: value for key, value in os.environ.items() if key != "MPLBACKEND"}
        for name in (
            "JUPYTER_CONFIG_DIR",
            "JUPYTER_RUNTIME_DIR",
            "JUPYTERLAB_SETTINGS_DIR",
            "JUPYTERLAB_WORKSPACES_DIR",
            "IPYTHONDIR",
        ):
            env[name] = str(tmp_path / name.lower())  # nothing read from or left in the home folder
        command = [  # `jupyter lab` without the `jupyter` command's hop through a second Python
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={NOTEBOOKS}",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
        self.log = open(self.log_path, "w")  # closed in stop()
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, env=env, cwd=tmp_path, start_new_session=True
        )

    def server_log(self):
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-6000:]

    def request(self, method, path, body=None, timeout=20):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text and path.startswith("/api") else text)

    def wait_ready(self):
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "jupyter lab exited"
            try:
                return self.request("GET", "/api/status", timeout=2)
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise AssertionError(f"jupyter lab did not answer in {STARTUP_SECONDS} s")

    def stop(self):
        """Shut down kernels and server; kill whatever is left of its processes."""
        try:
            server = psutil.Process(self.process.pid)
            family = [server, *server.children(recursive=True)]
        except psutil.NoSuchProcess:
            family = []
        try:
            self.request("POST", "/api/shutdown", timeout=5)
            self.process.wait(timeout=15)
        except (urllib.error.URLError, ConnectionError, TimeoutError, subprocess.TimeoutExpired):
            pass
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # the server's own process group
            self.process.wait(timeout=10)
        _, alive = psutil.wait_procs(family, timeout=5)
        for process in alive:  # kernels run in process groups of their own
            process.kill()
        psutil.wait_procs(alive, timeout=5)
        self.log.close()
        return [process for process in family if process.is_running() and process.status() != "zombie"]


def execute(channel, code):
    """Run ``code`` through the kernel's websocket; return (reply content, iopub messages)."""
    msg_id = uuid.uuid4().hex
    channel.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "msg_type": "execute_request",
                    "username": "test",
                    "session": uuid.uuid4().hex,
                    "version": "5.3",
                    "date": "",
                },
                "parent_header": {},
                "metadata": {},
                "channel": "shell",
                "buffers": [],
                "content": {
                    "code": code,
                    "silent": False,
                    "store_history": True,
                    "user_expressions": {},
                    "allow_stdin": False,
                    "stop_on_error": True,
                },
            }
        )
    )
    reply, outputs, idle = None, [], False
    deadline = time.monotonic() + EXECUTE_SECONDS
    while not (reply and idle) and time.monotonic() < deadline:
        message = json.loads(channel.recv())
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = message["header"]["msg_type"]
        if kind == "execute_reply":
            reply = message["content"]
        elif kind == "status":
            idle = message["content"]["execution_state"] == "idle"
        elif message["channel"] == "iopub" and kind != "execute_input":
            outputs.append(message)
    assert reply is not None and idle, f"no reply within {EXECUTE_SECONDS} s to {code[:60]!r}"
    return reply, outputs


def first_code_cell(path):
    return next(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")


@pytest.mark.timeout(120)
def test_jupyterlab_serves_and_runs_the_course(tmp_path):
    first = sorted(NOTEBOOKS.glob("01_*.ipynb"))
    assert first, "notebook 01 is missing"
    course = [path.name for path in course_notebooks()]
    lab = Lab(tmp_path)
    try:
        lab.wait_ready()
        status, page = lab.request("GET", "/lab")
        assert status == 200 and "jupyter-config-data" in page, "/lab is not the JupyterLab page"

        _, listing = lab.request("GET", "/api/contents/")
        listed = sorted(
            item["name"]
            for item in listing["content"]
            if re.match(r"\d\d_.*\.ipynb$", item["name"]) and item["type"] == "notebook"
        )
        assert listed == course, f"contents API lists {listed}"
        numbers = [int(name[:2]) for name in listed]
        consecutive = list(range(numbers[0], numbers[0] + len(numbers)))
        assert numbers == consecutive, f"course order has gaps: {listed}"

        _, session = lab.request(
            "POST",
            "/api/sessions",
            {"path": first[0].name, "name": first[0].name, "type": "notebook", "kernel": {"name": "python3"}},
        )
        kernel_id = session["kernel"]["id"]
        channel = websocket.create_connection(
            f"ws://127.0.0.1:{lab.port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}",
            header=[f"Authorization: token {lab.token}"],
            timeout=EXECUTE_SECONDS,
        )
        try:
            for code in ("import pe_utils\nprint(pe_utils.__name__)", first_code_cell(first[0])):
                reply, outputs = execute(channel, code)
                errors = [m["content"] for m in outputs if m["header"]["msg_type"] == "error"]
                assert reply["status"] == "ok", f"{code!r} failed: {reply}\n{errors}"
                stderr = [
                    m["content"]["text"]
                    for m in outputs
                    if m["header"]["msg_type"] == "stream" and m["content"]["name"] == "stderr"
                ]
                assert not stderr, f"{code!r} wrote to stderr: {stderr}"
            reply, outputs = execute(channel, "import os\nprint(os.getcwd())")
            printed = "".join(m["content"].get("text", "") for m in outputs)
            assert Path(printed.strip()) == NOTEBOOKS, "the kernel runs in the notebooks folder"
        finally:
            channel.close()
        lab.request("DELETE", f"/api/sessions/{session['id']}")
    except (AssertionError, OSError, websocket.WebSocketException) as error:  # OSError: HTTP, sockets
        detail = f"{error}: {error.read()[:500]!r}" if isinstance(error, urllib.error.HTTPError) else error
        raise AssertionError(f"{detail}\n--- server log ---\n{lab.server_log()}") from error
    finally:
        left = lab.stop()
    assert not left, f"processes left behind: {left}"
