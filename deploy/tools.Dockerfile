# The tools image (the demo origin and control plane, the benchmark's generator), for deploy/compose.yaml's
# demo-origin. Not the service: deploy/Dockerfile builds that, from src/main alone. Build from the repository root:
#
#     docker build -f deploy/tools.Dockerfile -t webhook-buffer-tools:latest .
#
# It holds the local build (`mvn -B -Plocal package`, target/local/quarkus-app): the service's classes, which the
# tools call (command signing, HMAC), with src/tools and src/local beside them. Run a tool by its main class, e.g.
#     docker run --rm -p 9000:9000 webhook-buffer-tools io.webhookbuffer.demo.DemoOrigin --port 9000
# BUILD_IMAGE and RUNTIME_IMAGE name the two bases, as in deploy/Dockerfile.
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre

FROM ${BUILD_IMAGE} AS build
WORKDIR /build
COPY pom.xml .
RUN mvn -B -q -Plocal dependency:go-offline || true
# config/: Checkstyle runs in validate, so `mvn package` reads its rules before compiling.
COPY config ./config
COPY src ./src
RUN mvn -B -Plocal package -Dexec.skip

FROM ${RUNTIME_IMAGE}
RUN groupadd --system --gid 10001 buffer \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /app --shell /usr/sbin/nologin buffer
WORKDIR /app
COPY --from=build --chown=10001:10001 /build/target/local/quarkus-app/ /app/
USER 10001:10001
ENTRYPOINT ["java", "-cp", "/app/app/*:/app/lib/main/*"]
