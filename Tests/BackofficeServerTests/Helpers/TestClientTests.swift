import Testing

@testable import BackofficeServer

/// The test browser must keep a cookie whose random value happens to contain "1970" or
/// "max-age=0"-like text, and drop only cookies whose attributes expire them.
@Suite("Test client: cookies")
struct TestClientTests {
  @Test func aRandomValueContaining1970IsKept() {
    #expect(
      !TestResponse.removesCookie(
        "backoffice_csrf=ab1970cdEF-_ghijklmnopqrstuvwxyz0123456789AB; Max-Age=86400; Path=/"))
  }

  @Test func expiringAttributesRemoveTheCookie() {
    #expect(TestResponse.removesCookie("flash=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"))
    #expect(TestResponse.removesCookie("flash=; Max-Age=0; Path=/"))
    #expect(!TestResponse.removesCookie("session=abc; Max-Age=2592000; HttpOnly"))
  }
}
