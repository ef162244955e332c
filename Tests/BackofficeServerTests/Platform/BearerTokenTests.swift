import Testing
import Vapor

@testable import BackofficeServer

/// Every API call reads its token with the app's own parser; it must take and refuse exactly
/// what Vapor's `bearerAuthorization` takes and refuses.
@Suite("Bearer token")
struct BearerTokenTests {
  static let values = [
    "Bearer bo_abc", "bearer bo_abc", "BEARER bo_abc", "BeArEr x", "Bearer  two-spaces",
    "  Bearer leading", "Bearer trailing  ", "Bearer", "Bearer ", "Bearer a b", "Basic abc",
    "Bearerx abc", "Beare abc", "Bearer\tabc", "", " ", "Bearer bo_ünïcode", "Ｂearer abc",
    "bEARER" + String(repeating: "t", count: 10_000),
    "Bearer " + String(repeating: "t", count: 10_000),
    "Token Bearer abc", "Bearer=abc", "Bearer ab\u{0}c",
  ]

  @Test func readsWhatVaporReads() {
    for value in Self.values {
      let headers = HTTPHeaders([("Authorization", value)])
      #expect(headers.bearerToken == headers.bearerAuthorization?.token, "\(value.prefix(40))")
    }
    #expect(HTTPHeaders().bearerToken == nil)
    #expect(HTTPHeaders([("authorization", "Bearer x")]).bearerToken == "x")
  }

  @Test func anAPICallWithALowerCaseSchemeIsSignedIn() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      client.forgetCookies()
      let me = try await client.get("/api/v1/me", headers: ["Authorization": "bearer \(token)"])
      #expect(me.status == .ok, "\(me.body)")
      let refused = try await client.get(
        "/api/v1/me", headers: ["Authorization": "Bearer \(token) extra"])
      #expect(refused.status == .unauthorized)
    }
  }
}
