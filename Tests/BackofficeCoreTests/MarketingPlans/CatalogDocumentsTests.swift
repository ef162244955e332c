import Foundation
import Testing

@testable import BackofficeCore

private func fees(_ entries: String...) -> String {
  #"{"channel":"Facebook","monthly_fees":["# + entries.joined(separator: ",") + "]}"
}

private func fee(price: String, currency: String = #""EUR""#) -> String {
  #"{"price":\#(price),"details":["a","b"],"currency":\#(currency)}"#
}

private func channel(_ json: String, id: String = "0af1bfee844a7003cec5")
  throws(CatalogDocumentError) -> ChannelDocument
{
  try ChannelDocument.decode(Data(json.utf8), documentID: id)
}

@Suite("Marketing catalog documents")
struct CatalogDocumentsTests {
  @Test func decodesAChannelDocument() throws {
    let document = try channel(fees(fee(price: "140"), fee(price: "75")))
    #expect(document.channel == "Facebook")
    #expect(document.monthlyFees.map(\.price) == [140, 75])
    #expect(document.monthlyFees[0].details == ["a", "b"])
    #expect(document.monthlyFees[0].currency == "EUR")
  }

  @Test(arguments: [
    ("140", "140"),
    ("19.99", "19.99"),
    ("0.1", "0.1"),
    // More digits than a Double holds: only a reading of the literal's text keeps them all.
    ("1234567.123456789012", "1234567.123456789012"),
    ("999999999999999.999999999999", "999999999999999.999999999999"),
    ("1234567890123.45", "1234567890123.45"),
    (#""140""#, "140"),
    (#""19.99""#, "19.99"),
    (#"" 12.50 ""#, "12.5"),
    (#""0.3""#, "0.3"),
  ])
  func priceIsExact(json: String, expected: String) throws {
    let document = try channel(fees(fee(price: json)))
    #expect(document.monthlyFees[0].price == Decimal(string: expected))
  }

  @Test(arguments: [
    (
      fees(fee(price: "1"), fee(price: "2"), fee(price: #""12abc""#)),
      "monthly_fees[2].price is not a number"
    ),
    (fees(fee(price: #""""#)), "monthly_fees[0].price is not a number"),
    (fees(fee(price: #""1,5""#)), "monthly_fees[0].price is not a number"),
    (fees(fee(price: #""1e3""#)), "monthly_fees[0].price is not a number"),
    (fees(fee(price: #""-5""#)), "monthly_fees[0].price is not a number"),
    (fees(fee(price: "true")), "monthly_fees[0].price is not a number"),
    (fees(fee(price: "null")), "monthly_fees[0].price is not a number"),
    (fees(fee(price: "[1]")), "monthly_fees[0].price is not a number"),
    (fees(fee(price: "-5")), "monthly_fees[0].price is negative"),
    (
      fees(fee(price: "1000000000000000")),
      "monthly_fees[0].price is too large or too precise (at most 15 digits before the decimal point and 12 after it)"
    ),
    (
      fees(fee(price: #""0.1234567890123""#)),
      "monthly_fees[0].price is too large or too precise (at most 15 digits before the decimal point and 12 after it)"
    ),
    (fees(#"{"details":[],"currency":"EUR"}"#), "monthly_fees[0].price is missing"),
    (
      fees(#"{"price":1,"details":"x","currency":"EUR"}"#),
      "monthly_fees[0].details is not an array"
    ),
    (
      fees(fee(price: "1", currency: #""EURO""#)),
      "monthly_fees[0].currency is not a 3-letter currency code (EURO)"
    ),
    (fees(fee(price: "1", currency: "7")), "monthly_fees[0].currency is not a string"),
    (#"{"monthly_fees":[]}"#, "channel is missing"),
    (#"{"channel":"Facebook","monthly_fees":{}}"#, "monthly_fees is not an array"),
    ("[]", "the document is not an object"),
    (#"{"channel":"#, "the document is not valid JSON"),
  ])
  func channelErrorsSayWhereAndWhat(json: String, problem: String) {
    #expect(throws: CatalogDocumentError.self) { try channel(json) }
    do {
      _ = try channel(json)
    } catch {
      #expect(error.message == "channel document 0af1bfee844a7003cec5: \(problem)")
      #expect(error.kind == .channel)
      #expect(error.documentID == "0af1bfee844a7003cec5")
    }
  }

  @Test func currencyCodesAreUpperCased() throws {
    let document = try channel(fees(fee(price: "1", currency: #"" eur""#)))
    #expect(document.monthlyFees[0].currency == "EUR")
  }

  @Test func decodesTheTargetingArray() throws {
    let json = #"""
      [{"target":"Location","available_channels":[
         {"channel":"Facebook","channel_id":"f"},{"channel":"SEO","channel_id":"s"}]},
       {"target":"Events","available_channels":[
         {"channel":"SEO","channel_id":"s"},{"channel":"Twitter","channel_id":"t"}]}]
      """#
    let document = try TargetingDocument.decode(Data(json.utf8), documentID: "b22")
    #expect(document.targets.map(\.target) == ["Location", "Events"])
    #expect(document.targets[0].availableChannels[1].channelID == "s")
    #expect(document.channelIDs == ["f", "s", "t"])
  }

  @Test(arguments: [
    (#"{"target":"x"}"#, "the document is not an array"),
    (
      #"[{"target":"x","available_channels":[{"channel":"F"}]}]"#,
      "[0].available_channels[0].channel_id is missing"
    ),
    (#"[{"available_channels":[]}]"#, "[0].target is missing"),
    ("", "the document is not valid JSON"),
  ])
  func targetingErrorsSayWhereAndWhat(json: String, problem: String) {
    do {
      _ = try TargetingDocument.decode(Data(json.utf8), documentID: "b22fd39c053b256222b1")
      Issue.record("expected an error for \(json)")
    } catch {
      #expect(error.message == "targeting document b22fd39c053b256222b1: \(problem)")
    }
  }

  @Test func documentsRoundTripThroughJSON() throws {
    let original = try channel(fees(fee(price: #""19.99""#), fee(price: "140")))
    let data = try JSONEncoder().encode(original)
    #expect(try ChannelDocument.decode(data, documentID: "x") == original)

    let targeting = TargetingDocument(targets: [
      .init(target: "Age", availableChannels: [.init(channel: "SEO", channelID: "s")])
    ])
    let encoded = try JSONEncoder().encode(targeting)
    #expect(String(decoding: encoded, as: UTF8.self).hasPrefix("["))
    #expect(try TargetingDocument.decode(encoded, documentID: "t") == targeting)
  }
}
