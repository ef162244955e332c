import BackofficeCore
import Foundation
import NIOCore
import Vapor

/// Asks Monobank's jar API about one jar. Every outcome is a value: the jar's figures, or a
/// `JarFetchError` saying why not (timeout, no connection, HTTP error, the service's own
/// `errCode`, or an answer that cannot be read).
struct JarClient: Sendable {
  var fetch: @Sendable (JarID) async -> Result<JarSnapshotValue, JarFetchError>

  /// Largest answer read; a jar's JSON is a few hundred bytes.
  static let maxBodyBytes = 64 * 1024

  /// `POST {baseURL}api/handler` through the app's HTTP client, giving up after `timeout`.
  static func live(
    client: any Client, baseURL: String, timeout: TimeAmount, logger: Logger
  ) -> JarClient {
    let url = JarRequest.url(base: baseURL)
    return JarClient { jar in
      var headers = HTTPHeaders()
      headers.contentType = .json
      headers.add(name: .accept, value: "application/json")
      let request = ClientRequest(
        method: .POST, url: URI(string: url), headers: headers,
        body: ByteBuffer(data: JarRequest.body(jarID: jar, nonce: JarRequest.makeNonce())),
        timeout: timeout)
      let response: ClientResponse
      do {
        response = try await client.send(request)
      } catch {
        let failure = classify(error)
        logger.info("jar \(jar.rawValue): \(failure.reason)")
        return .failure(failure)
      }
      var body = response.body ?? ByteBuffer()
      guard body.readableBytes <= maxBodyBytes else {
        return .failure(.malformed(JarFetchDetail.answerTooLarge.rawValue))
      }
      let data = body.readData(length: body.readableBytes) ?? Data()
      let result = JarResponse.decode(httpStatus: Int(response.status.code), body: data)
      if case .failure(let failure) = result {
        logger.info("jar \(jar.rawValue): \(failure.reason)")
      }
      return result
    }
  }

  /// Transport errors in the two kinds a volunteer can act on: too slow, or no connection.
  static func classify(_ error: any Error) -> JarFetchError {
    switch NetworkFailure(error) {
    case .connectTimeout, .readTimeout, .deadlineExceeded, .timeout: return .timeout
    case .closed: return .network(JarFetchDetail.connectionClosed.rawValue)
    case .refused: return .network(JarFetchDetail.connectionRefused.rawValue)
    case .unknownHost: return .network(JarFetchDetail.hostNotFound.rawValue)
    case .other(let text): return .network(String(text.prefix(120)))
    }
  }
}

extension Application {
  /// `clients.jar`, or the live client for the configured base URL and timeout.
  var jarClient: JarClient {
    clients.jar
      ?? .live(
        client: client, baseURL: config.monobankBaseURL,
        timeout: .milliseconds(Int64(config.jarRequestTimeout * 1000)), logger: logger)
  }
}
