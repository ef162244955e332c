import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("One source for every URL, and the OpenAPI document")
struct RouteTableTests {
  /// Registered routes as "METHOD /path/:param" with parameter names normalised.
  static func registered(_ app: Application) -> Set<String> {
    Set(
      app.routes.all.map { route in
        "\(route.method.rawValue) /"
          + route.path.map { component -> String in
            switch component {
            case .parameter: ":"
            default: component.description
            }
          }.joined(separator: "/")
      })
  }

  static func normalised(_ route: AppRoute) -> String {
    "\(route.method.rawValue) /"
      + route.template.split(separator: "/").map { $0.hasPrefix(":") ? ":" : String($0) }
      .joined(separator: "/")
  }

  @Test func everyRouteInTheTableIsRegisteredAndNothingElse() async throws {
    try await withApp { t in
      let registered = Self.registered(t.app)
      let table = Set(Routes.all.map(Self.normalised))
      #expect(registered == table)
    }
  }

  @Test func hrefsRoundTripThroughTheRouter() async throws {
    let id = UUID()
    #expect(
      Routes.tokenRevoke.href(id: id) == "/settings/tokens/\(id.uuidString.lowercased())/revoke")
    #expect(Routes.signIn.href(query: ["next": "/a b+c"]) == "/sign-in?next=/a%20b%2Bc")
    #expect(Routes.home.href() == "/")
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      for route in Routes.all where route.method == .GET && !route.template.contains(":") {
        let response = try await client.get(route.href())
        #expect(response.status != .notFound, "\(route)")
      }
    }
  }

  /// Reads the served document and compares its operations with the registered API routes.
  @Test func openAPIDocumentMatchesTheRoutes() async throws {
    try await withApp { t in
      let response = try await t.client().get("/openapi.json")
      #expect(response.status == .ok)
      let document = try response.json()
      #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
      let paths = try #require(document["paths"] as? [String: [String: Any]])
      var documented = Set<String>()
      for (path, operations) in paths {
        for method in operations.keys
        where ["get", "post", "put", "patch", "delete"].contains(method) {
          let template = path.split(separator: "/").map {
            $0.hasPrefix("{") ? ":" : String($0)
          }.joined(separator: "/")
          documented.insert("\(method.uppercased()) /\(template)")
        }
      }
      let served = Self.registered(t.app).filter {
        $0.contains(" /api/") || $0.hasSuffix(" /health") || $0.hasSuffix(" /ready")
      }
      #expect(documented == served)
    }
  }
}

@Suite("Configuration")
struct ConfigTests {
  @Test func defaultsToSQLiteInTheDataFolder() throws {
    let config = try AppConfig.load(from: ["BACKOFFICE_DATA_DIR": "/tmp/bo-data"])
    #expect(config.database == .sqliteFile(path: "/tmp/bo-data/backoffice.sqlite"))
    #expect(config.signupOpen)
    #expect(config.maxUploadBytes == 5 * 1024 * 1024)
    let plain = try AppConfig.load(from: [:])
    #expect(plain.database == .sqliteFile(path: "./data/backoffice.sqlite"))
  }

  @Test func postgresURLSwitchesDatabase() throws {
    let config = try AppConfig.load(from: ["DATABASE_URL": "postgres://u:p@db.local:5432/bo"])
    #expect(config.database == .postgres(url: "postgres://u:p@db.local:5432/bo", searchPath: nil))
  }

  @Test func everyProblemIsReportedAtOnce() throws {
    #expect {
      _ = try AppConfig.load(from: [
        "DATABASE_URL": "mysql://x", "BACKOFFICE_SIGNUP": "maybe",
        "BACKOFFICE_MAX_UPLOAD_MB": "lots",
      ])
    } throws: { error in
      let problems = (error as? ConfigError)?.problems ?? []
      return problems.count == 3 && problems[0].contains("DATABASE_URL must start with postgres://")
    }
    #expect(throws: ConfigError.self) {
      _ = try AppConfig.load(from: ["DATABASE_URL": "postgres:///nohost"])
    }
    #expect(try AppConfig.load(from: ["BACKOFFICE_SIGNUP": "closed"]).signupOpen == false)
  }

  @Test func unreachableDatabaseIsAClearStartupError() async throws {
    let app = try await Application.make(.testing)
    app.logger.logLevel = .critical
    let config = AppConfig(
      database: .postgres(url: "postgres://u:p@127.0.0.1:1/none", searchPath: nil))
    await #expect {
      try await configure(app, config: config)
    } throws: { error in
      let message = (error as? StartupError)?.message ?? ""
      return message.contains("Could not open PostgreSQL at postgres://u:***@127.0.0.1:1/none")
        && message.contains("Check DATABASE_URL")
    }
    try await app.asyncShutdown()
  }
}

/// Links are written without Foundation's encoders when nothing needs encoding, byte for byte
/// what those encoders write.
@Suite("Route links")
struct RouteHrefTests {
  /// The encoders' way for every value (how links were written before the short way).
  private func viaEncoders(
    _ route: AppRoute, _ parameters: [String: String], _ query: [String: String?]
  ) -> String {
    var path = route.template.split(separator: "/", omittingEmptySubsequences: true).map {
      segment -> String in
      guard segment.hasPrefix(":") else { return String(segment) }
      let value = parameters[String(segment.dropFirst())] ?? ""
      return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value
    }.joined(separator: "/")
    path = "/" + path
    let items = query.compactMap { key, value in value.map { (key, $0) } }
      .sorted { $0.0 < $1.0 }
    guard !items.isEmpty else { return path }
    var components = URLComponents()
    components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
    return path + "?"
      + (components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? "")
  }

  @Test func linksAreTheEncodersLinks() {
    let values = [
      "", "plain", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "a b", "a+b", "a&b=c", "ü/ö", "..",
      "~x_y.z-1", "%41", "#frag", "?q", "лампа 50%", "🎉",
    ]
    let routes = [
      Routes.products, Routes.productUpdate, Routes.apiProduct, AppRoute(.GET, "/"),
      AppRoute(.GET, "/a/:x/b/:y/"),
    ]
    for route in routes {
      for value in values {
        let parameters = ["productID": value, "x": value, "y": "fixed"]
        for query: [String: String?] in [
          [:], ["page": "2"], ["q": value], ["q": value, "page": "3", "gone": nil],
          [value: "1"],
        ] {
          #expect(
            route.href(parameters, query: query) == viaEncoders(route, parameters, query),
            "\(route.template) \(value) \(query)")
        }
      }
    }
    let id = UUID.random()
    #expect(
      Routes.productUpdate.href(id: id)
        == viaEncoders(Routes.productUpdate, ["productID": id.uuidString.lowercased()], [:]))
  }
}
