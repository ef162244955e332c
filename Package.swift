// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "Backoffice",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "backoffice", targets: ["backoffice"]),
    .library(name: "BackofficeCore", targets: ["BackofficeCore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/vapor/vapor.git", from: "4.122.0"),
    .package(url: "https://github.com/vapor/fluent.git", from: "4.13.0"),
    .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.0"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
    .package(url: "https://github.com/swiftcsv/SwiftCSV.git", from: "0.10.0"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
  ],
  targets: [
    // MARK: core — Foundation only, shared with future Apple clients
    .target(
      name: "BackofficeCore",
      // The interface's texts, one catalogue per language (docs/languages.md).
      resources: [.copy("Resources/Localization")],
      swiftSettings: swiftSettings
    ),

    // MARK: server — Vapor + Fluent
    .target(
      name: "BackofficeServer",
      dependencies: [
        "BackofficeCore",
        .product(name: "Vapor", package: "vapor"),
        .product(name: "Fluent", package: "fluent"),
        .product(name: "SQLiteKit", package: "sqlite-kit"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
        .product(name: "SwiftCSV", package: "SwiftCSV"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: executable — entry point only
    .executableTarget(
      name: "backoffice",
      dependencies: ["BackofficeServer"],
      swiftSettings: swiftSettings
    ),

    // MARK: tests
    .target(
      name: "TestSupport",
      path: "Tests/TestSupport",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BackofficeCoreTests",
      dependencies: ["BackofficeCore", "TestSupport"],
      exclude: ["Fundraisers/Posters/__Snapshots__"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BackofficeServerTests",
      dependencies: [
        "BackofficeServer",
        "TestSupport",
        .product(name: "VaporTesting", package: "vapor"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      exclude: ["Views/__Snapshots__", "Fixtures"],
      swiftSettings: swiftSettings
    ),
  ]
)

var swiftSettings: [SwiftSetting] {
  [.swiftLanguageMode(.v6)]
}
