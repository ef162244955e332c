import BackofficeCore
import Foundation
import Vapor

/// `backoffice catalog refresh`: fetches the marketing catalog like the page's button does.
struct CatalogCommand: AsyncCommandGroup {
  var commands: [String: any AnyAsyncCommand] { ["refresh": CatalogRefreshCommand()] }
  var help: String { "Manage the marketing catalog." }
}

struct CatalogRefreshCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "url", help: "Base URL to fetch from (default: BACKOFFICE_CATALOG_URL).")
    var url: String?

    init() {}
  }

  var help: String {
    "Fetch the marketing catalog documents and store them. On failure the stored catalog is "
      + "kept and the command exits with a non-zero status."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    if let url = signature.url {
      let scheme = URLComponents(string: url)?.scheme?.lowercased() ?? ""
      guard ["http", "https"].contains(scheme) else {
        throw StartupError("--url must be an http(s) URL such as https://api.npoint.io/.")
      }
    }
    let base = MarketingCatalogRefresh.normalizedBase(signature.url ?? app.config.catalogBaseURL)
    context.console.print("Refreshing the marketing catalog from \(base) …")
    let update = try await MarketingCatalogRefresh.run(app: app, baseURL: base)
    let message = update.message(locale: .enUS)
    guard update.succeeded else { throw StartupError(message) }
    context.console.print(message)
  }
}
