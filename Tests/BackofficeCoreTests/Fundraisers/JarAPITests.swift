import Foundation
import TestSupport
import Testing

@testable import BackofficeCore

private let jar = JarID(rawValue: "8Xd9vZqKpL")!

private func decode(_ json: String) -> Result<JarSnapshotValue, JarFetchError> {
  JarResponse.decode(Data(json.utf8))
}

@Suite("Jar API request", .ukrainian)
struct JarRequestTests {
  @Test func body() throws {
    let data = JarRequest.body(jarID: jar, nonce: "abc123")
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"c":"hello","clientId":"8Xd9vZqKpL","Pc":"abc123"}"#)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    #expect(object == ["c": "hello", "clientId": "8Xd9vZqKpL", "Pc": "abc123"])
  }

  @Test func nonceIsEscaped() throws {
    let nonce = "a\"b\\c\nd\u{01}é"
    let data = JarRequest.body(jarID: jar, nonce: nonce)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    #expect(object["Pc"] == nonce)
  }

  @Test func nonce() {
    var generator = SeededGenerator(seed: 42)
    let first = JarRequest.makeNonce(using: &generator)
    #expect(first.count == 32)
    #expect(first.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(JarRequest.makeNonce() != JarRequest.makeNonce())
  }

  @Test(
    "url",
    arguments: [
      ("https://send.monobank.ua", "https://send.monobank.ua/api/handler"),
      ("https://send.monobank.ua/", "https://send.monobank.ua/api/handler"),
      ("http://127.0.0.1:8089//", "http://127.0.0.1:8089/api/handler"),
    ])
  func url(base: String, expected: String) {
    #expect(JarRequest.url(base: base) == expected)
  }

  @Test func constants() {
    #expect(JarRequest.defaultBaseURL == "https://send.monobank.ua")
    #expect(JarRequest.method == "POST")
    #expect(JarRequest.contentType == "application/json")
  }
}

@Suite("Jar API response", .ukrainian)
struct JarResponseTests {
  @Test func activeJar() throws {
    let result = decode(
      """
      {"jarAmount": 1234550, "jarGoal": 5000000, "jarStatus": "ACTIVE",
       "name": "На дрон", "description": "Збираємо на Mavic", "extJarId": "ext-77",
       "ownerName": "Олена", "ownerIcon": "https://example.com/i.png"}
      """)
    let snapshot = try result.get()
    #expect(snapshot.amountKopiykas == 1_234_550)
    #expect(snapshot.amount == Decimal(string: "12345.5"))
    #expect(snapshot.goalKopiykas == 5_000_000)
    #expect(snapshot.goal == 50000)
    #expect(snapshot.status == .active)
    #expect(snapshot.serviceStatus == "ACTIVE")
    #expect(snapshot.name == "На дрон")
    #expect(snapshot.description == "Збираємо на Mavic")
    #expect(snapshot.externalID == "ext-77")
  }

  @Test(
    "status",
    arguments: [
      ("ACTIVE", JarStatus.active), ("active", .active), ("CLOSED", .closed),
      ("FINISHED", .closed), ("BLOCKED", .closed),
    ])
  func status(text: String, expected: JarStatus) throws {
    let snapshot = try decode(#"{"jarAmount": 100, "jarStatus": "\#(text)"}"#).get()
    #expect(snapshot.status == expected)
    #expect(snapshot.serviceStatus == text)
  }

  @Test func closedJarTitle() {
    #expect(JarStatus.closed.title == "Збір закрито")
  }

  @Test(
    "goal variants",
    arguments: [
      (#""jarGoal": 0,"#, nil as Int64?),
      (#""jarGoal": null,"#, nil),
      ("", nil),
      (#""jarGoal": "300000","#, 300_000),
      (#""jarGoal": 300000.0,"#, 300_000),
    ])
  func goal(fragment: String, expected: Int64?) throws {
    let snapshot = try decode(#"{"jarAmount": 5, \#(fragment) "jarStatus": "ACTIVE"}"#).get()
    #expect(snapshot.goalKopiykas == expected)
  }

  @Test(
    "amount variants",
    arguments: [
      (#"0"#, Int64(0)),
      (#"12345"#, 12345),
      (#""12345""#, 12345),
      (#"" 12345 ""#, 12345),
      (#"1.2345e4"#, 12345),
      (#"9007199254740993"#, 9_007_199_254_740_993),
    ])
  func amount(json: String, expected: Int64) throws {
    let snapshot = try decode(#"{"jarAmount": \#(json), "jarStatus": "ACTIVE"}"#).get()
    #expect(snapshot.amountKopiykas == expected)
  }

  @Test(
    "service errors",
    arguments: [
      (
        #"{"errCode": "ERR_JAR_NOT_FOUND", "errText": "Банку не знайдено"}"#,
        JarFetchError.service(code: "ERR_JAR_NOT_FOUND", text: "Банку не знайдено")
      ),
      (#"{"errCode": 1001}"#, .service(code: "1001", text: "")),
      (#"{"errText": "Щось пішло не так"}"#, .service(code: "", text: "Щось пішло не так")),
      (
        #"{"errCode": "X", "errText": "y", "jarAmount": 5, "jarStatus": "ACTIVE"}"#,
        .service(code: "X", text: "y")
      ),
    ])
  func serviceError(json: String, expected: JarFetchError) {
    #expect(decode(json) == .failure(expected))
  }

  @Test(
    "malformed answers",
    arguments: [
      ("", "порожня відповідь"),
      ("<html>502 Bad Gateway</html>", "не JSON-об'єкт"),
      ("[1, 2]", "не JSON-об'єкт"),
      ("\"ok\"", "не JSON-об'єкт"),
      ("{", "не JSON-об'єкт"),
      ("{}", "немає поля jarAmount"),
      (#"{"jarStatus": "ACTIVE"}"#, "немає поля jarAmount"),
      (#"{"jarAmount": null, "jarStatus": "ACTIVE"}"#, "немає поля jarAmount"),
      (#"{"jarAmount": -5, "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (#"{"jarAmount": 10.5, "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (#"{"jarAmount": "12,5", "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (#"{"jarAmount": "-5", "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (#"{"jarAmount": true, "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (#"{"jarAmount": {}, "jarStatus": "ACTIVE"}"#, "неправильне значення jarAmount"),
      (
        #"{"jarAmount": 99999999999999999999, "jarStatus": "ACTIVE"}"#,
        "неправильне значення jarAmount"
      ),
      (
        #"{"jarAmount": 5, "jarGoal": "lots", "jarStatus": "ACTIVE"}"#,
        "неправильне значення jarGoal"
      ),
      (#"{"jarAmount": 5}"#, "немає поля jarStatus"),
      (#"{"jarAmount": 5, "jarStatus": ""}"#, "неправильне значення jarStatus"),
      (#"{"jarAmount": 5, "jarStatus": 1}"#, "неправильне значення jarStatus"),
    ])
  func malformed(body: String, reason: String) {
    #expect(decode(body) == .failure(.malformed(reason)))
  }

  @Test func emptyOptionalTextsBecomeNil() throws {
    let snapshot = try decode(
      #"{"jarAmount": 1, "jarStatus": "ACTIVE", "name": "", "description": null}"#
    ).get()
    #expect(snapshot.name == nil)
    #expect(snapshot.description == nil)
    #expect(snapshot.externalID == nil)
  }

  @Test func httpStatus() {
    let ok = Data(#"{"jarAmount": 1, "jarStatus": "ACTIVE"}"#.utf8)
    #expect((try? JarResponse.decode(httpStatus: 200, body: ok).get())?.amountKopiykas == 1)
    #expect(JarResponse.decode(httpStatus: 502, body: Data("oops".utf8)) == .failure(.http(502)))
    #expect(JarResponse.decode(httpStatus: 404, body: ok) == .failure(.http(404)))
    let err = Data(#"{"errCode": "429", "errText": "Забагато запитів"}"#.utf8)
    #expect(
      JarResponse.decode(httpStatus: 429, body: err)
        == .failure(.service(code: "429", text: "Забагато запитів")))
  }

  @Test(
    "messages",
    arguments: [
      (JarFetchError.timeout, "Не вдалося оновити: Monobank не відповів вчасно"),
      (
        .network("connection refused"),
        "Не вдалося оновити: немає з'єднання з Monobank (connection refused)"
      ),
      (.http(503), "Не вдалося оновити: Monobank повернув помилку HTTP 503"),
      (
        .service(code: "E1", text: "Банку не знайдено"),
        "Не вдалося оновити: Банку не знайдено (E1)"
      ),
      (.service(code: "E1", text: ""), "Не вдалося оновити: Monobank повернув помилку E1"),
      (
        .malformed("не JSON-об'єкт"),
        "Не вдалося оновити: незрозуміла відповідь Monobank: не JSON-об'єкт"
      ),
    ])
  func message(error: JarFetchError, expected: String) {
    #expect(error.message == expected)
  }

  @Test func errorsAndSnapshotsAreCodable() throws {
    let errors: [JarFetchError] = [
      .timeout, .network("x"), .http(500), .service(code: "a", text: "b"), .malformed("m"),
    ]
    let data = try JSONEncoder().encode(errors)
    #expect(try JSONDecoder().decode([JarFetchError].self, from: data) == errors)
    let snapshot = JarSnapshotValue(amountKopiykas: 5, goalKopiykas: 10, status: .closed, name: "n")
    let again = try JSONDecoder().decode(
      JarSnapshotValue.self, from: JSONEncoder().encode(snapshot))
    #expect(again == snapshot)
    #expect(again.serviceStatus == "CLOSED")
  }
}
