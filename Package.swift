// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "geophoto",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .executable(name: "geophoto", targets: ["geophoto"]),
    // For map apps: a client of `geophoto serve`, Foundation only.
    .library(name: "GeoPhotoClient", targets: ["GeoPhotoClient"]),
  ],
  targets: [
    // MARK: C libraries (Debian packages), each behind its own wrapper module
    .systemLibrary(
      name: "CGeoPhotoSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoHTTPD",
      pkgConfig: "libmicrohttpd",
      providers: [.apt(["libmicrohttpd-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoCairo",
      pkgConfig: "cairo",
      providers: [.apt(["libcairo2-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoPQ",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoExif",
      pkgConfig: "libexif",
      providers: [.apt(["libexif-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoBrotli",
      pkgConfig: "libbrotlidec",
      providers: [.apt(["libbrotli-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoExpat",
      pkgConfig: "expat",
      providers: [.apt(["libexpat1-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoIPTC",
      pkgConfig: "libiptcdata",
      providers: [.apt(["libiptcdata0-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoTurboJPEG",
      pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoWebP",
      pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoHEIF",
      pkgConfig: "libheif",
      providers: [.apt(["libheif-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoJXL",
      pkgConfig: "libjxl",
      providers: [.apt(["libjxl-dev"])]
    ),
    .systemLibrary(
      name: "CGeoPhotoYAJL",
      pkgConfig: "yajl",
      providers: [.apt(["libyajl-dev"])]
    ),

    // MARK: Pure Swift core: geodesy, the spatial index, the annotation model
    .target(name: "GeoPhotoCore", swiftSettings: strict),

    // MARK: Wrappers and engines
    .target(name: "GeoPhotoStore", dependencies: ["GeoPhotoCore"], swiftSettings: strict),
    .target(
      name: "GeoPhotoSQLite", dependencies: ["GeoPhotoCore", "GeoPhotoStore", "CGeoPhotoSQLite"], swiftSettings: strict),
    .target(
      name: "GeoPhotoExif",
      dependencies: ["GeoPhotoCore", "CGeoPhotoExif", "CGeoPhotoBrotli", "CGeoPhotoIPTC"],
      swiftSettings: strict
    ),
    .target(
      name: "GeoPhotoSync",
      dependencies: ["GeoPhotoCore", "GeoPhotoStore", "GeoPhotoExif"],
      swiftSettings: strict
    ),
    .target(name: "GeoPhotoEncoding", dependencies: ["GeoPhotoCore", "GeoPhotoTravel"], swiftSettings: strict),
    .target(
      name: "GeoPhotoPlaces",
      dependencies: ["GeoPhotoCore"],
      resources: [.copy("Resources/places-cities500.gaz")],
      swiftSettings: strict
    ),
    .target(name: "GeoPhotoHTTP", dependencies: ["GeoPhotoCore", "CGeoPhotoCurl"], swiftSettings: strict),
    .target(
      name: "GeoPhotoThumbnails",
      dependencies: [
        "GeoPhotoCore", "GeoPhotoExif", "CGeoPhotoTurboJPEG", "CGeoPhotoPNG", "CGeoPhotoWebP", "CGeoPhotoHEIF",
        "CGeoPhotoJXL",
      ],
      swiftSettings: strict),
    .target(name: "GeoPhotoHTTPD", dependencies: ["CGeoPhotoHTTPD"], swiftSettings: strict),
    .target(
      name: "GeoPhotoPostgres", dependencies: ["GeoPhotoCore", "GeoPhotoStore", "CGeoPhotoPQ"], swiftSettings: strict),
    .target(
      name: "GeoPhotoBackends", dependencies: ["GeoPhotoStore", "GeoPhotoSQLite", "GeoPhotoPostgres"],
      swiftSettings: strict),
    .target(
      name: "GeoPhotoRoutes", dependencies: ["GeoPhotoCore", "GeoPhotoHTTP"], swiftSettings: strict),
    .target(
      name: "GeoPhotoTracks", dependencies: ["GeoPhotoCore", "CGeoPhotoZlib", "CGeoPhotoYAJL", "CGeoPhotoExpat"],
      swiftSettings: strict),
    .target(
      name: "GeoPhotoGeotag", dependencies: ["GeoPhotoCore", "GeoPhotoStore", "GeoPhotoTracks", "GeoPhotoExif"],
      swiftSettings: strict),
    .target(
      name: "GeoPhotoVectorTiles", dependencies: ["GeoPhotoCore", "GeoPhotoSQLite", "CGeoPhotoZlib"],
      swiftSettings: strict),
    .target(
      name: "GeoPhotoBasemap",
      dependencies: ["GeoPhotoCore", "GeoPhotoPlaces", "CGeoPhotoCairo", "CGeoPhotoPNG"],
      resources: [.copy("Resources/world.basemap")],
      swiftSettings: strict
    ),
    .target(
      name: "GeoPhotoStreetMap",
      dependencies: ["GeoPhotoCore", "GeoPhotoVectorTiles", "GeoPhotoBasemap", "GeoPhotoThumbnails", "CGeoPhotoCairo"],
      swiftSettings: strict
    ),
    .target(name: "GeoPhotoTravel", dependencies: ["GeoPhotoCore", "GeoPhotoStore"], swiftSettings: strict),
    .target(
      name: "GeoPhotoShares", dependencies: ["GeoPhotoCore", "GeoPhotoStore", "CGeoPhotoCrypto"], swiftSettings: strict),
    .target(
      name: "GeoPhotoSnapshot",
      dependencies: ["GeoPhotoCore", "GeoPhotoHTTP", "GeoPhotoBasemap", "CGeoPhotoCairo"],
      swiftSettings: strict
    ),
    .target(
      name: "GeoPhotoRemote",
      dependencies: ["GeoPhotoCore", "GeoPhotoHTTP", "GeoPhotoStore"],
      swiftSettings: strict
    ),
    .target(
      name: "GeoPhotoCLI",
      dependencies: [
        "GeoPhotoCore", "GeoPhotoStore", "GeoPhotoSync", "GeoPhotoExif", "GeoPhotoEncoding", "GeoPhotoRemote",
        "GeoPhotoHTTP", "GeoPhotoServer", "GeoPhotoHTTPD", "GeoPhotoRoutes", "GeoPhotoSnapshot", "GeoPhotoPlaces",
        "GeoPhotoBackends", "GeoPhotoThumbnails", "GeoPhotoBasemap", "GeoPhotoGeotag", "GeoPhotoTracks",
        "GeoPhotoVectorTiles", "GeoPhotoStreetMap", "GeoPhotoTravel", "GeoPhotoShares",
      ],
      swiftSettings: strict
    ),
    .target(
      name: "GeoPhotoServer",
      dependencies: [
        "GeoPhotoCore", "GeoPhotoStore", "GeoPhotoEncoding", "GeoPhotoExif", "GeoPhotoHTTPD", "GeoPhotoPlaces",
        "GeoPhotoThumbnails", "GeoPhotoBasemap", "GeoPhotoVectorTiles", "GeoPhotoTravel", "GeoPhotoShares",
      ],
      resources: [
        .embedInCode("WebMap/index.html"), .embedInCode("WebMap/geophoto.js"), .embedInCode("WebMap/geophoto.css"),
      ],
      swiftSettings: strict
    ),
    .executableTarget(name: "geophoto", dependencies: ["GeoPhotoCLI"], swiftSettings: strict),
    .target(name: "GeoPhotoClient", swiftSettings: strict),

    // MARK: Developer tools: fixtures for tests, examples and benchmarks
    .target(
      name: "GeoPhotoFixtures",
      dependencies: ["GeoPhotoCore", "GeoPhotoExif", "GeoPhotoStore", "GeoPhotoSQLite", "GeoPhotoPostgres"],
      swiftSettings: strict),
    .executableTarget(
      name: "geophoto-fixtures",
      dependencies: ["GeoPhotoFixtures", "GeoPhotoPlaces", "GeoPhotoBasemap", "GeoPhotoSQLite"],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "geophoto-fuzz",
      dependencies: [
        "GeoPhotoCore", "GeoPhotoExif", "GeoPhotoFixtures", "GeoPhotoThumbnails", "GeoPhotoBasemap", "GeoPhotoSnapshot",
        "GeoPhotoTracks", "GeoPhotoVectorTiles", "GeoPhotoStreetMap",
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "geophoto-bench",
      dependencies: [
        "GeoPhotoCore", "GeoPhotoStore", "GeoPhotoSQLite", "GeoPhotoFixtures", "GeoPhotoServer", "GeoPhotoHTTPD",
        "GeoPhotoPlaces", "GeoPhotoPostgres", "GeoPhotoThumbnails", "GeoPhotoBasemap", "GeoPhotoStreetMap",
        "GeoPhotoVectorTiles", "GeoPhotoTravel",
      ],
      swiftSettings: strict
    ),

    // MARK: Tests
    .testTarget(name: "GeoPhotoCoreTests", dependencies: ["GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(name: "GeoPhotoEncodingTests", dependencies: ["GeoPhotoEncoding", "GeoPhotoCore"]),
    .testTarget(name: "GeoPhotoHTTPTests", dependencies: ["GeoPhotoHTTP", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(name: "GeoPhotoHTTPDTests", dependencies: ["GeoPhotoHTTPD", "GeoPhotoHTTP", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoRemoteTests",
      dependencies: ["GeoPhotoRemote", "GeoPhotoHTTP", "GeoPhotoStore", "GeoPhotoFixtures"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "GeoPhotoClientTests",
      dependencies: [
        "GeoPhotoClient", "GeoPhotoServer", "GeoPhotoHTTPD", "GeoPhotoPlaces", "GeoPhotoFixtures", "GeoPhotoCore",
        "GeoPhotoStore", "GeoPhotoVectorTiles",
      ]
    ),
    .testTarget(
      name: "GeoPhotoThumbnailsTests",
      dependencies: ["GeoPhotoThumbnails", "GeoPhotoExif", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoServerTests",
      dependencies: [
        "GeoPhotoServer", "GeoPhotoHTTPD", "GeoPhotoHTTP", "GeoPhotoStore", "GeoPhotoSQLite", "GeoPhotoFixtures",
        "GeoPhotoPlaces",
        "GeoPhotoThumbnails", "GeoPhotoBasemap", "GeoPhotoSnapshot", "GeoPhotoVectorTiles", "GeoPhotoTravel",
        "GeoPhotoShares",
      ]
    ),
    .testTarget(
      name: "GeoPhotoRoutesTests",
      dependencies: ["GeoPhotoRoutes", "GeoPhotoCore", "GeoPhotoHTTP", "GeoPhotoFixtures"]
    ),
    .testTarget(name: "GeoPhotoTracksTests", dependencies: ["GeoPhotoTracks", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoGeotagTests",
      dependencies: [
        "GeoPhotoGeotag", "GeoPhotoTracks", "GeoPhotoCore", "GeoPhotoStore", "GeoPhotoSQLite", "GeoPhotoFixtures",
      ]
    ),
    .testTarget(
      name: "GeoPhotoSnapshotTests",
      dependencies: ["GeoPhotoSnapshot", "GeoPhotoCore", "GeoPhotoHTTP", "GeoPhotoFixtures"]
    ),
    .testTarget(
      name: "GeoPhotoBasemapTests",
      dependencies: ["GeoPhotoBasemap", "GeoPhotoCore", "GeoPhotoPlaces", "GeoPhotoSnapshot", "GeoPhotoFixtures"]
    ),
    .testTarget(name: "GeoPhotoPlacesTests", dependencies: ["GeoPhotoPlaces", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoPostgresTests",
      dependencies: [
        "GeoPhotoPostgres", "GeoPhotoCore", "GeoPhotoStore", "GeoPhotoSync", "GeoPhotoServer", "GeoPhotoFixtures",
        "GeoPhotoBackends",
      ]
    ),
    .testTarget(
      name: "GeoPhotoStoreTests",
      dependencies: ["GeoPhotoStore", "GeoPhotoCore", "GeoPhotoFixtures", "GeoPhotoBackends"]),
    .testTarget(
      name: "GeoPhotoStreetMapTests",
      dependencies: [
        "GeoPhotoStreetMap", "GeoPhotoVectorTiles", "GeoPhotoBasemap", "GeoPhotoSnapshot", "GeoPhotoFixtures",
      ]
    ),
    .testTarget(name: "GeoPhotoTravelTests", dependencies: ["GeoPhotoTravel", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoVectorTilesTests",
      dependencies: ["GeoPhotoVectorTiles", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoSQLiteTests",
      dependencies: ["GeoPhotoSQLite", "GeoPhotoStore", "GeoPhotoCore", "GeoPhotoFixtures"]),
    .testTarget(
      name: "GeoPhotoExifTests",
      dependencies: ["GeoPhotoExif", "GeoPhotoFixtures", "geophoto-fuzz"]
    ),
    .testTarget(
      name: "GeoPhotoSyncTests",
      dependencies: ["GeoPhotoSync", "GeoPhotoStore", "GeoPhotoFixtures"]
    ),
    .testTarget(
      name: "GeoPhotoCLITests",
      dependencies: [
        "GeoPhotoCLI", "GeoPhotoEncoding", "GeoPhotoFixtures", "GeoPhotoHTTP", "GeoPhotoStore", "GeoPhotoSync",
        "GeoPhotoPlaces", "GeoPhotoSnapshot",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
