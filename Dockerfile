# Lifeboat in a container. FaultFS needs the host's FUSE device and the right to mount:
#   docker build -t lifeboat .
#   docker run --rm --device /dev/fuse --cap-add SYS_ADMIN --security-opt apparmor:unconfined \
#       -v "$PWD/reports:/lifeboat/reports" lifeboat run Scenarios --seeds 1-10
# Without --device /dev/fuse the drills that need FaultFS are skipped (exit 3, "incomplete");
# add --require-fuse to make that exit 2 instead.
FROM swift:6.2-bookworm

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        fuse3=3.14.* libfuse3-dev=3.14.* libsqlite3-dev=3.40.* sqlite3=3.40.* pkg-config=1.8.* xfsprogs=6.1.* \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /lifeboat
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release
COPY Scenarios ./Scenarios

ENTRYPOINT ["/lifeboat/.build/release/lifeboat"]
CMD ["run", "Scenarios", "--seeds", "1-3"]
