"""The run's sandbox as a container (svc_sandbox.testcontainers): the plugin's ``svc_sandbox``
fixture overridden, so ``workspace`` makes each test's workspace in it. Run by
``npm run test:container`` (scripts/python-kit-container-test.sh) against the image it built."""

import os

import pytest

from svc_sandbox.testcontainers import SvcSandboxContainer


@pytest.fixture(scope="session")
def container():
    # No control token: the built-in inbox refuses deliveries on a sandbox that has one.
    with SvcSandboxContainer(os.environ.get("SVC_SANDBOX_IMAGE"), seed="py-kit") as started:
        yield started


@pytest.fixture(scope="session")
def svc_sandbox(container):
    with container.sandbox() as sandbox:
        yield sandbox
