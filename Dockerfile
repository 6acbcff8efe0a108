# syntax=docker/dockerfile:1
#
# reviewlock container image.
#
#   docker build -t reviewlock .
#   docker run --rm -p 8080:8080 \
#     -e DATABASE_URL=postgres://postgres:secret@db-host:5432/reviewlock \
#     -e REVIEWLOCK_ADMIN_TOKEN=... reviewlock
#
# Or use docker-compose.yml, which also starts PostgreSQL.

# Rust toolchain for the build stage. The crate is edition 2024, so >= 1.85 is required;
# override with --build-arg RUST_VERSION=1.95 to pin an exact toolchain.
ARG RUST_VERSION=1

############################################################################
# Build stage
############################################################################
FROM rust:${RUST_VERSION}-slim-bookworm AS builder

WORKDIR /app

# All SQL is checked at runtime (no `query!` macros), so no database and no `.sqlx/`
# directory are needed to compile. Setting this makes sure sqlx's macros never try
# to reach a database during the build.
ENV SQLX_OFFLINE=true \
    CARGO_TERM_COLOR=never

# 1) Dependency layer: build all dependencies against a dummy lib + bin with the real
#    manifest and lock file. This layer is reused as long as Cargo.toml/Cargo.lock
#    do not change, so code-only changes skip recompiling the dependency tree.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src \
    && echo 'fn main() {}' > src/main.rs \
    && : > src/lib.rs \
    && cargo build --release --locked \
    && rm -rf src

# 2) The real sources. `migrations/` must be present at compile time because
#    `sqlx::migrate!()` embeds it into the binary.
COPY src ./src
COPY migrations ./migrations

# COPY keeps the files' original mtimes, which can be older than the dummy build's
# artifacts; cargo would then consider the crate fresh and ship the dummy binary.
# Drop the crate's own fingerprints/artifacts (dependencies stay cached) and touch
# the roots so the real code is always compiled.
RUN rm -rf target/release/.fingerprint/reviewlock-* \
           target/release/deps/reviewlock-* \
           target/release/deps/libreviewlock-* \
    && touch src/main.rs src/lib.rs \
    && cargo build --release --locked \
    && cp target/release/reviewlock /usr/local/bin/reviewlock

############################################################################
# Runtime stage
############################################################################
FROM debian:bookworm-slim AS runtime

# ca-certificates only (for TLS to external services, should any be configured).
# No curl/wget: the HEALTHCHECK below uses bash's built-in /dev/tcp instead.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*

# Unprivileged user with a fixed numeric id (so `runAsNonRoot` style checks can
# verify it without resolving names).
RUN groupadd --system --gid 10001 reviewlock \
    && useradd --system --uid 10001 --gid reviewlock --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin reviewlock \
    && install -d -o 10001 -g 10001 -m 0700 /var/lib/reviewlock

COPY --from=builder /usr/local/bin/reviewlock /usr/local/bin/reviewlock

# Inside a container the service must listen on all interfaces (the binary's own
# default is 127.0.0.1:8080, unreachable from outside the container).
# Without REVIEWLOCK_ADMIN_TOKEN, the bootstrap admin token's secret goes to a file only the
# service user can read (never to the log): `docker exec <container> cat` it, then delete it.
ENV REVIEWLOCK_LISTEN=0.0.0.0:8080 \
    REVIEWLOCK_LOG_FORMAT=json \
    REVIEWLOCK_ADMIN_TOKEN_FILE=/var/lib/reviewlock/admin-token

USER 10001:10001
EXPOSE 8080

# Liveness check against GET /healthz (no auth, no database dependency).
# The binary has no health subcommand and the image deliberately has no curl/wget,
# so this uses bash (already part of debian:bookworm-slim) and its /dev/tcp
# redirection to send a minimal HTTP/1.1 request and require a "200" status line.
# That is the smallest option that still checks the HTTP layer, not just an open port.
# The port is taken from REVIEWLOCK_LISTEN (text after the last ':'), default 8080;
# the check connects to 127.0.0.1, so REVIEWLOCK_LISTEN must be a wildcard or loopback
# address.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["bash", "-c", "port=${REVIEWLOCK_LISTEN##*:}; exec 3<>\"/dev/tcp/127.0.0.1/${port:-8080}\" || exit 1; printf 'GET /healthz HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 || exit 1; IFS= read -r -t 4 status <&3 || exit 1; [[ $status == HTTP/1.[01]\\ 200* ]]"]

ENTRYPOINT ["reviewlock"]
CMD ["serve"]
