import Testing

@testable import BackofficeCore

@Suite("AdPaymentURL")
struct AdPaymentURLTests {
  static let valid: [String] = [
    // The spec's examples.
    "https://www.google.com",
    "http://example.org",
    "https://example.com/path?q=1",
    // Scheme and host in any case.
    "HTTPS://WWW.EXAMPLE.COM",
    "Http://Example.Org",
    // Unicode letters in labels (IDN hosts), and their punycode spelling.
    "https://приклад.укр",
    "https://ПРИКЛАД.УКР/шлях?так=1",
    "https://münchen.de",
    "https://例子.中国",
    "http://उदाहरण.भारत",
    "https://xn--80aikifvh.xn--j1amh",
    "https://xn--mnchen-3ya.de",
    // Ports.
    "https://example.com:8080",
    "https://example.com:8080/path",
    "https://example.com:65535/",
    "https://example.com:/",
    // Paths, queries, fragments are not inspected (beyond whitespace).
    "https://example.com/@user",
    "https://example.com/?from=a@b.com",
    "https://example.com#top",
    "https://example.com?q",
    "https://example.com/a%20b",
    "https://uk.wikipedia.org/wiki/Київ",
    "https://example.com/a\\b",
    // Digits and inner hyphens in labels other than the TLD.
    "https://a-b.example.com",
    "https://3com.com",
    "https://123.example.com",
    "https://sub.domain.co.uk/x?y=1&z=2",
    "https://x--y.com",
  ]

  static let invalid: [String] = [
    // The spec's examples.
    "http://google",
    "https://invalid.",
    "http://test",
    "ftp://x.com",
    "http://1.2.3.4",
    "http://-a.com",
    // Empty, or not an http(s) link.
    "",
    "www.example.com",
    "example.com",
    "https:/example.com",
    "https:example.com",
    "mailto:someone@example.com",
    "javascript:alert(1)",
    "httpx://example.com",
    "//example.com",
    // Empty host.
    "https://",
    "https:///path",
    "https://?q=1",
    "https://#top",
    "https://:8080",
    // User info (phishing disguise).
    "https://user:pass@example.com",
    "https://user@example.com",
    "https://www.bank.com@evil.com",
    "https://good.com:443@evil.com/",
    "https://@example.com",
    // Bad ports.
    "https://example.com:abc",
    "https://example.com:65536",
    "https://example.com:-1",
    "https://example.com:80:90",
    "https://example.com:８０",
    // Empty labels: trailing dot, leading dot, double dot.
    "https://example.com.",
    "https://example.com./path",
    "https://.example.com",
    "https://example..com",
    // Leading or trailing hyphen.
    "https://a-.com",
    "https://example-.com",
    "https://www.-example.com",
    "https://example.com-",
    "https://xn--.com",
    // Other characters in labels.
    "https://ex_ample.com",
    "https://exa$mple.com",
    "https://ex%61mple.com",
    "https://😀.com",
    "https://example.com\\@evil.com",
    "http://[::1]/",
    "http://[2001:db8::1]:8080/",
    "https://localhost:8080",
    // The TLD: too short, digits, hyphen.
    "https://example.c",
    "https://example.123",
    "https://example.c0m",
    "https://example.co-uk",
    "https://example.xn--",
    // Whitespace anywhere, including around the link (the form trims; this function does not).
    "https://exa mple.com",
    "https://example.com/a b",
    "https://example.com/?q=a b",
    " https://example.com",
    "https://example.com ",
    "https://example.com\t",
    "https://exam\nple.com",
    "https://example.com/a\u{00A0}b",
    "https://example.com/\u{3000}",
    // Invisible and control characters.
    "https://exa\u{200B}mple.com",
    "https://example.com/\u{202E}gpj.exe",
    "https://example.com/\u{0000}",
  ]

  @Test("valid links", arguments: valid)
  func acceptsValid(_ link: String) {
    #expect(AdPaymentURL.isValid(link))
  }

  @Test("invalid links", arguments: invalid)
  func refusesInvalid(_ link: String) {
    #expect(!AdPaymentURL.isValid(link))
  }

  @Test func tablesDoNotOverlap() {
    #expect(Set(Self.valid).isDisjoint(with: Self.invalid))
  }

  @Test(
    "host as typed",
    arguments: [
      ("https://WWW.Example.com:8080/x", "WWW.Example.com"),
      ("https://приклад.укр/", "приклад.укр"),
      ("http://example.org?x#y", "example.org"),
    ])
  func host(_ link: String, _ host: String) {
    #expect(AdPaymentURL.host(of: link) == host)
  }

  @Test func hostOfInvalidIsNil() {
    #expect(AdPaymentURL.host(of: "http://google") == nil)
  }

  @Test(
    "duplicate key",
    arguments: [
      ("https://www.example.com", "https://www.example.com"),
      ("https://www.example.com/", "https://www.example.com"),
      ("HTTPS://WWW.EXAMPLE.COM/", "https://www.example.com"),
      ("  https://Example.com/Path/  ", "https://example.com/Path"),
      ("https://Example.com/Path?Q=1", "https://example.com/Path?Q=1"),
      ("https://Example.com:8080/", "https://example.com:8080"),
      ("https://Example.com#Top", "https://example.com#Top"),
      ("https://ПРИКЛАД.УКР/", "https://приклад.укр"),
      ("https://example.com//", "https://example.com/"),
      ("https://User@Example.com", "https://User@example.com"),
      ("no scheme/", "no scheme"),
      ("https://cafe\u{301}.fr", "https://caf\u{E9}.fr"),
    ])
  func duplicateKey(_ link: String, _ key: String) {
    #expect(AdPaymentURL.duplicateKey(link) == key)
    // Byte-exact, since the key is compared by a database.
    #expect(Array(AdPaymentURL.duplicateKey(link).utf8) == Array(key.utf8))
  }

  @Test func differentPathsAreNotDuplicates() {
    #expect(
      AdPaymentURL.duplicateKey("https://example.com/a")
        != AdPaymentURL.duplicateKey("https://example.com/A"))
    #expect(
      AdPaymentURL.duplicateKey("http://example.com")
        != AdPaymentURL.duplicateKey("https://example.com"))
  }
}
