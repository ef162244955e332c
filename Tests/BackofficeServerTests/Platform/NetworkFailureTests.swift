import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The one reading of transport errors, and how each client words it.
@Suite struct NetworkFailureTests {
  struct Described: Error, CustomStringConvertible {
    var description: String
  }

  @Test func clientErrorsAndDescriptionsAreSortedIntoKinds() {
    #expect(NetworkFailure(HTTPClientError.connectTimeout) == .connectTimeout)
    #expect(NetworkFailure(HTTPClientError.tlsHandshakeTimeout) == .connectTimeout)
    #expect(NetworkFailure(HTTPClientError.getConnectionFromPoolTimeout) == .connectTimeout)
    #expect(NetworkFailure(HTTPClientError.readTimeout) == .readTimeout)
    #expect(NetworkFailure(HTTPClientError.writeTimeout) == .readTimeout)
    #expect(NetworkFailure(HTTPClientError.deadlineExceeded) == .deadlineExceeded)
    #expect(NetworkFailure(HTTPClientError.remoteConnectionClosed) == .closed)
    #expect(NetworkFailure(Described(description: "connect(): Connection refused")) == .refused)
    #expect(NetworkFailure(Described(description: "The operation timed out")) == .timeout)
    #expect(NetworkFailure(Described(description: "NXDOMAIN")) == .unknownHost)
    #expect(
      NetworkFailure(Described(description: "could not resolve host x.invalid")) == .unknownHost)
    #expect(NetworkFailure(Described(description: "odd")) == .other("odd"))
  }

  @Test func theJarClientWordsThemInUkrainian() {
    #expect(JarClient.classify(HTTPClientError.readTimeout) == .timeout)
    #expect(JarClient.classify(HTTPClientError.connectTimeout) == .timeout)
    #expect(JarClient.classify(Described(description: "timed out")) == .timeout)
    #expect(
      JarClient.classify(HTTPClientError.remoteConnectionClosed)
        == .network("з'єднання розірвано"))
    #expect(
      JarClient.classify(Described(description: "Connection refused"))
        == .network("з'єднання відхилено"))
    #expect(
      JarClient.classify(Described(description: "NXDOMAIN")) == .network("сервер не знайдено"))
    let long = String(repeating: "x", count: 200)
    #expect(JarClient.classify(Described(description: long)) == .network(String(long.prefix(120))))
  }

  @Test func theCatalogClientNamesTheHost() {
    let url = "https://catalog.example.com/catalog.json"
    func reason(_ error: any Error) -> String? {
      if case .offline(let reason) = MarketingCatalogClient.classify(error, url: url) {
        return reason
      }
      return nil
    }
    let host = "catalog.example.com"
    #expect(reason(HTTPClientError.connectTimeout) == "\(host) did not accept a connection in time")
    #expect(reason(HTTPClientError.readTimeout) == "\(host) stopped answering")
    #expect(reason(HTTPClientError.deadlineExceeded) == "\(host) took too long to answer")
    #expect(reason(HTTPClientError.remoteConnectionClosed) == "\(host) closed the connection")
    #expect(
      reason(Described(description: "Connection refused")) == "\(host) refused the connection")
    #expect(reason(Described(description: "NXDOMAIN")) == "\(host) could not be found (DNS)")
    #expect(reason(Described(description: "odd")) == "could not reach \(host) (odd)")
    let failure = MarketingFetchFailure.error(message: "HTTP 500")
    #expect(MarketingCatalogClient.classify(failure, url: url) == failure)
  }
}
