import BackofficeCore
import Foundation
import NIOCore
import Vapor

/// Why fetching the catalog documents failed, in the two kinds people need to tell apart.
enum MarketingFetchFailure: Error, Hashable, Sendable {
  /// Nothing usable arrived: no connection, unknown host, or too slow.
  case offline(reason: String)
  /// The host answered, but not with a catalog: an HTTP error or a document that is not valid.
  case error(message: String)

  var status: MarketingRefreshStatus {
    switch self {
    case .offline(let reason): .offline(reason: reason)
    case .error(let message): .error(message: message)
    }
  }

  /// The same failure said of one channel: "channel “Twitter”: HTTP 500 from …".
  func about(channel name: String?) -> Self {
    guard let name else { return self }
    switch self {
    case .offline(let reason):
      return .offline(
        reason: L("marketing.fetch.about_channel", ["channel": name, "problem": reason]))
    case .error(let message):
      return .error(
        message: L("marketing.fetch.about_channel", ["channel": name, "problem": message]))
    }
  }
}

/// Time limits for one document, as the original app had them: `request` is the longest wait
/// for a connection or for the next bytes, `total` the longest a whole request may take.
struct MarketingFetchTimeouts: Hashable, Sendable {
  var request: TimeAmount
  var total: TimeAmount

  init(request seconds: Double, total totalSeconds: Double) {
    request = .nanoseconds(Int64(seconds * 1_000_000_000))
    total = .nanoseconds(Int64(totalSeconds * 1_000_000_000))
  }

  init(_ config: AppConfig) {
    self.init(request: config.catalogRequestTimeout, total: config.catalogTotalTimeout)
  }

  /// The HTTP client settings these limits turn into.
  var clientConfiguration: HTTPClient.Configuration {
    var configuration = HTTPClient.Configuration(
      timeout: .init(connect: request, read: request),
      decompression: .enabled(limit: .size(MarketingCatalogClient.maxDocumentBytes)))
    // Redirects are followed by `get` itself, and only on the configured host.
    configuration.redirectConfiguration = .disallow
    return configuration
  }
}

/// Fetches the catalog documents (`{base}{document id}`): the targeting document first, then
/// every channel document it names, at the same time.
struct MarketingCatalogClient: Sendable {
  static let maxDocumentBytes = 1024 * 1024

  var fetchDocuments:
    @Sendable (_ baseURL: String) async -> Result<[String: Data], MarketingFetchFailure>

  /// The real thing: a short-lived HTTP client on the app's event loops, so its time limits
  /// apply to these requests only.
  static func live(eventLoopGroup: any EventLoopGroup, timeouts: MarketingFetchTimeouts) -> Self {
    MarketingCatalogClient { baseURL in
      let client = HTTPClient(
        eventLoopGroup: eventLoopGroup, configuration: timeouts.clientConfiguration)
      let result = await fetchAll(baseURL: baseURL, timeouts: timeouts) { url in
        try await get(url, client: client, timeouts: timeouts)
      }
      try? await client.shutdown()
      return result
    }
  }

  /// Fetches the targeting document, reads which channel documents it names, then fetches
  /// those. `get` returns a document's bytes or throws a `MarketingFetchFailure`.
  static func fetchAll(
    baseURL: String, timeouts: MarketingFetchTimeouts,
    get: @escaping @Sendable (String) async throws -> Data
  ) async -> Result<[String: Data], MarketingFetchFailure> {
    let targetingID = MarketingCatalog.targetingDocumentID
    do {
      let targetingData = try await get(baseURL + targetingID)
      let targeting: TargetingDocument
      do throws(CatalogDocumentError) {
        targeting = try TargetingDocument.decode(targetingData, documentID: targetingID)
      } catch {
        return .failure(.error(message: error.message))
      }
      var documents = [targetingID: targetingData]
      try await withThrowingTaskGroup(of: (String, Data).self) { group in
        for id in targeting.channelIDs {
          let name = targeting.channelName(of: id)
          group.addTask {
            do {
              return (id, try await get(baseURL + id))
            } catch let failure as MarketingFetchFailure {
              throw failure.about(channel: name)
            }
          }
        }
        for try await (id, data) in group {
          documents[id] = data
        }
      }
      return .success(documents)
    } catch let failure as MarketingFetchFailure {
      return .failure(failure)
    } catch {
      return .failure(classify(error, url: baseURL))
    }
  }

  /// Redirects followed for one document, each only to the host the document was asked from:
  /// the catalog is fetched from one configured place, so a redirect elsewhere is refused
  /// rather than trusted (it could point the server at an internal address).
  static let maxRedirects = 3

  private static func get(_ url: String, client: HTTPClient, timeouts: MarketingFetchTimeouts)
    async throws -> Data
  {
    let deadline = NIODeadline.now() + timeouts.total
    var current = url
    for _ in 0...maxRedirects {
      let request: HTTPClient.Request
      do {
        request = try HTTPClient.Request(
          url: current, method: .GET, headers: ["Accept": "application/json"])
      } catch {
        throw MarketingFetchFailure.error(
          message: L("marketing.fetch.invalid_url", ["url": current]))
      }
      let response: HTTPClient.Response
      do {
        response = try await client.execute(request: request, deadline: deadline).get()
      } catch {
        throw classify(error, url: current)
      }
      if [301, 302, 303, 307, 308].contains(response.status.code) {
        current = try SameOriginRedirect.target(
          of: current, location: response.headers.first(name: .location))
        continue
      }
      guard response.status == .ok else {
        throw MarketingFetchFailure.error(
          message: L(
            "marketing.fetch.http_status",
            ["status": String(response.status.code), "url": current]))
      }
      let body = response.body ?? ByteBuffer()
      guard body.readableBytes <= maxDocumentBytes else {
        throw MarketingFetchFailure.error(
          message: L(
            "marketing.fetch.too_large",
            ["url": current, "size": String(maxDocumentBytes / 1024)]))
      }
      return Data(body.readableBytesView)
    }
    throw MarketingFetchFailure.error(
      message: L("marketing.fetch.too_many_redirects", count: maxRedirects, ["url": url]))
  }

  /// Transport failures are "offline": the previous catalog is the best there is. The reason
  /// is kept in words a person can act on.
  static func classify(_ error: any Error, url: String) -> MarketingFetchFailure {
    let host = URLComponents(string: url)?.host ?? url
    if let failure = error as? MarketingFetchFailure { return failure }
    let reason =
      switch NetworkFailure(error) {
      case .connectTimeout: L("marketing.fetch.connect_timeout", ["host": host])
      case .readTimeout: L("marketing.fetch.read_timeout", ["host": host])
      case .deadlineExceeded: L("marketing.fetch.deadline_exceeded", ["host": host])
      case .timeout: L("marketing.fetch.timeout", ["host": host])
      case .closed: L("marketing.fetch.closed", ["host": host])
      case .refused: L("marketing.fetch.refused", ["host": host])
      case .unknownHost: L("marketing.fetch.unknown_host", ["host": host])
      case .other(let text): L("marketing.fetch.other", ["host": host, "error": text])
      }
    return .offline(reason: reason)
  }
}

extension Application {
  /// `clients.marketingCatalog`, or the live client built from the configured limits.
  var marketingCatalogClient: MarketingCatalogClient {
    clients.marketingCatalog
      ?? .live(eventLoopGroup: eventLoopGroup, timeouts: MarketingFetchTimeouts(config))
  }
}
