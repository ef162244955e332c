import Foundation

/// The request half of Monobank's (unofficial) jar API, the one the public jar page uses:
/// `POST {base}/api/handler` with a small JSON body. The transport itself lives in the server.
public enum JarRequest {
  /// Production base URL; the server makes it a setting so tests can use a local stub.
  public static let defaultBaseURL = "https://send.monobank.ua"
  public static let path = "/api/handler"
  public static let method = "POST"
  public static let contentType = "application/json"

  /// `{base}/api/handler`, tolerating a trailing slash on the base.
  public static func url(base: String) -> String {
    var trimmed = Substring(base)
    while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return trimmed + path
  }

  /// `{"c":"hello","clientId":"<jar id>","Pc":"<nonce>"}`, keys in that order.
  public static func body(jarID: JarID, nonce: String) -> Data {
    // The jar id is letters and digits only; the nonce may be anything, so it is escaped.
    Data(#"{"c":"hello","clientId":"\#(jarID.rawValue)","Pc":\#(JSONText.string(nonce))}"#.utf8)
  }

  /// A fresh random value for `Pc`: 32 lowercase hex digits.
  public static func makeNonce(using generator: inout some RandomNumberGenerator) -> String {
    let digits = Array("0123456789abcdef")
    return String((0..<32).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
  }

  /// A fresh random value for `Pc` from the system generator.
  public static func makeNonce() -> String {
    var generator = SystemRandomNumberGenerator()
    return makeNonce(using: &generator)
  }
}

/// Whether a jar still takes money.
public enum JarStatus: String, Hashable, Sendable, Codable {
  case active
  case closed

  /// The service says `"ACTIVE"` for an open jar; anything else counts as closed.
  public init(serviceValue: String) {
    self = serviceValue.uppercased() == "ACTIVE" ? .active : .closed
  }

  /// Badge text for cards, in the interface language.
  public var title: String {
    switch self {
    case .active: L("fundraisers.jar_status.active")
    case .closed: L("fundraisers.jar_status.closed")
    }
  }
}

/// What one successful fetch says about a jar. Amounts are kept in kopiykas, exactly as the
/// service sends them; `amount` and `goal` give hryvnias.
public struct JarSnapshotValue: Hashable, Sendable, Codable {
  /// Collected so far, in kopiykas.
  public var amountKopiykas: Int64
  /// The jar's own goal in kopiykas; `nil` when the jar has none (absent, null or 0).
  public var goalKopiykas: Int64?
  public var status: JarStatus
  /// The status text exactly as received, e.g. `"ACTIVE"`.
  public var serviceStatus: String
  /// The jar's title as set by its owner.
  public var name: String?
  public var description: String?
  /// `extJarId` from the service.
  public var externalID: String?

  public init(
    amountKopiykas: Int64,
    goalKopiykas: Int64? = nil,
    status: JarStatus,
    serviceStatus: String? = nil,
    name: String? = nil,
    description: String? = nil,
    externalID: String? = nil
  ) {
    self.amountKopiykas = amountKopiykas
    self.goalKopiykas = goalKopiykas
    self.status = status
    self.serviceStatus = serviceStatus ?? (status == .active ? "ACTIVE" : "CLOSED")
    self.name = name
    self.description = description
    self.externalID = externalID
  }

  /// Collected so far, in hryvnias.
  public var amount: Decimal { MinorUnits(amountKopiykas).decimal }
  /// The jar's own goal in hryvnias, if it has one.
  public var goal: Decimal? { goalKopiykas.map { MinorUnits($0).decimal } }
}

/// Why a jar refresh failed. `message` is the line shown next to the last good snapshot,
/// "Could not refresh: …", in the interface language at the time it is shown. A snapshot keeps
/// the error as `storedForm` (a code, not words), so a refresh made in the background or by
/// someone reading another language still reads in each reader's own language.
public enum JarFetchError: Error, Hashable, Sendable, Codable {
  /// No answer in time.
  case timeout
  /// The connection failed; the detail is a `JarFetchDetail` raw value or the transport's own
  /// description.
  case network(String)
  /// An HTTP status other than 2xx.
  case http(Int)
  /// The service answered with `{"errCode": …, "errText": …}`.
  case service(code: String, text: String)
  /// The answer could not be understood; the detail is a `JarFetchDetail` raw value.
  case malformed(String)

  public var message: String { L("fundraisers.jar_error.message", ["reason": reason]) }

  /// The part after "Could not refresh: ".
  public var reason: String {
    switch self {
    case .timeout:
      L("fundraisers.jar_error.timeout")
    case .network(let detail):
      L("fundraisers.jar_error.network", ["detail": JarFetchDetail.text(detail)])
    case .http(let status):
      L("fundraisers.jar_error.http", ["status": String(status)])
    case .service(let code, let text):
      // The service's own text, as it sent it, with its code.
      text.isEmpty ? L("fundraisers.jar_error.service", ["code": code]) : "\(text) (\(code))"
    case .malformed(let detail):
      L("fundraisers.jar_error.malformed", ["detail": JarFetchDetail.text(detail)])
    }
  }

  /// The error as a snapshot stores it: compact JSON of the case and its values, the same in
  /// every language.
  public var storedForm: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8)
    else { return reason }
    return text
  }

  /// Reads `storedForm`; nil for anything else (such as the words stored by earlier versions).
  public init?(storedForm: String) {
    guard storedForm.hasPrefix("{"),
      let error = try? JSONDecoder().decode(JarFetchError.self, from: Data(storedForm.utf8))
    else { return nil }
    self = error
  }

  /// A snapshot's stored error in the interface language: `reason` of a stored form; text
  /// stored as words by earlier versions is shown as it is.
  public static func describe(stored: String) -> String {
    JarFetchError(storedForm: stored)?.reason ?? stored
  }
}

/// The fixed details `JarFetchError.network` and `.malformed` carry. The raw values are the
/// (Ukrainian) words these details were written in before the interface had two languages; they
/// stay as identifiers and are shown through `text`. Any other detail (a transport's own
/// description) is shown as it is.
public enum JarFetchDetail: String, CaseIterable, Sendable {
  case emptyAnswer = "порожня відповідь"
  case notJSONObject = "не JSON-об'єкт"
  case noJarAmount = "немає поля jarAmount"
  case badJarAmount = "неправильне значення jarAmount"
  case badJarGoal = "неправильне значення jarGoal"
  case noJarStatus = "немає поля jarStatus"
  case badJarStatus = "неправильне значення jarStatus"
  case answerTooLarge = "завелика відповідь"
  case connectionClosed = "з'єднання розірвано"
  case connectionRefused = "з'єднання відхилено"
  case hostNotFound = "сервер не знайдено"

  /// The detail in the interface language.
  public var text: String {
    switch self {
    case .emptyAnswer: L("fundraisers.jar_error.detail.empty_answer")
    case .notJSONObject: L("fundraisers.jar_error.detail.not_json_object")
    case .noJarAmount: L("fundraisers.jar_error.detail.no_jar_amount")
    case .badJarAmount: L("fundraisers.jar_error.detail.bad_jar_amount")
    case .badJarGoal: L("fundraisers.jar_error.detail.bad_jar_goal")
    case .noJarStatus: L("fundraisers.jar_error.detail.no_jar_status")
    case .badJarStatus: L("fundraisers.jar_error.detail.bad_jar_status")
    case .answerTooLarge: L("fundraisers.jar_error.detail.answer_too_large")
    case .connectionClosed: L("fundraisers.jar_error.detail.connection_closed")
    case .connectionRefused: L("fundraisers.jar_error.detail.connection_refused")
    case .hostNotFound: L("fundraisers.jar_error.detail.host_not_found")
    }
  }

  /// `detail` in the interface language when it is one of these; otherwise as it is.
  public static func text(_ detail: String) -> String {
    JarFetchDetail(rawValue: detail)?.text ?? detail
  }
}

/// Reads the jar API's answer. Tolerant where the service has been seen to vary (numbers sent
/// as strings, goal missing or null), strict where a wrong value would mislead (negative or
/// fractional kopiykas, no amount, no status).
public enum JarResponse {
  /// Decodes a body that came with HTTP 200.
  public static func decode(_ data: Data) -> Result<JarSnapshotValue, JarFetchError> {
    guard !data.isEmpty else {
      return .failure(.malformed(JarFetchDetail.emptyAnswer.rawValue))
    }
    guard let object = try? JSONDecoder().decode([String: LooseValue].self, from: data) else {
      return .failure(.malformed(JarFetchDetail.notJSONObject.rawValue))
    }

    let errCode = object["errCode"]?.text
    let errText = object["errText"]?.text
    if errCode != nil || errText != nil {
      return .failure(.service(code: errCode ?? "", text: errText ?? ""))
    }

    let amount: Int64
    switch kopiykas(object["jarAmount"]) {
    case .missing: return .failure(.malformed(JarFetchDetail.noJarAmount.rawValue))
    case .invalid: return .failure(.malformed(JarFetchDetail.badJarAmount.rawValue))
    case .value(let value): amount = value
    }

    var goal: Int64?
    switch kopiykas(object["jarGoal"]) {
    case .missing: goal = nil
    case .invalid: return .failure(.malformed(JarFetchDetail.badJarGoal.rawValue))
    case .value(let value): goal = value > 0 ? value : nil
    }

    guard let statusValue = object["jarStatus"] else {
      return .failure(.malformed(JarFetchDetail.noJarStatus.rawValue))
    }
    guard case .string(let statusText) = statusValue, !statusText.isEmpty else {
      return .failure(.malformed(JarFetchDetail.badJarStatus.rawValue))
    }

    return .success(
      JarSnapshotValue(
        amountKopiykas: amount,
        goalKopiykas: goal,
        status: JarStatus(serviceValue: statusText),
        serviceStatus: statusText,
        name: object["name"]?.nonEmptyString,
        description: object["description"]?.nonEmptyString,
        externalID: object["extJarId"]?.text
      ))
  }

  /// Decodes a whole HTTP answer: a non-2xx status is `.http`, unless its body carries the
  /// service's own `errCode`, which says more.
  public static func decode(httpStatus: Int, body: Data) -> Result<JarSnapshotValue, JarFetchError>
  {
    if (200..<300).contains(httpStatus) { return decode(body) }
    if case .failure(let error) = decode(body), case .service = error { return .failure(error) }
    return .failure(.http(httpStatus))
  }

  // MARK: - Loose JSON values

  private enum Kopiykas {
    case missing
    case invalid
    case value(Int64)
  }

  /// Whole, non-negative kopiykas from a JSON number or a string of digits.
  private static func kopiykas(_ value: LooseValue?) -> Kopiykas {
    switch value {
    case nil, .null?:
      return .missing
    case .number(let number)?:
      guard number >= 0, number.isFinite else { return .invalid }
      var source = number
      var whole = Decimal()
      NSDecimalRound(&whole, &source, 0, .plain)
      guard whole == number, let parsed = Int64(whole.description) else { return .invalid }
      return .value(parsed)
    case .string(let text)?:
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isWholeNumber }),
        let parsed = Int64(trimmed)
      else { return .invalid }
      return .value(parsed)
    case .bool?, .other?:
      return .invalid
    }
  }

  private enum LooseValue: Decodable {
    case null
    case string(String)
    case number(Decimal)
    case bool(Bool)
    case other

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let text = try? container.decode(String.self) {
        self = .string(text)
      } else if let flag = try? container.decode(Bool.self) {
        self = .bool(flag)
      } else if let integer = try? container.decode(Int64.self) {
        // Whole numbers first: some decoders read `Decimal` through `Double`.
        self = .number(Decimal(integer))
      } else if let number = try? container.decode(Decimal.self) {
        self = .number(number)
      } else {
        self = .other
      }
    }

    /// Strings as they are, numbers in plain digits; nothing for other kinds.
    var text: String? {
      switch self {
      case .string(let text): text
      case .number(let number): number.description
      case .null, .bool, .other: nil
      }
    }

    var nonEmptyString: String? {
      guard case .string(let text) = self, !text.isEmpty else { return nil }
      return text
    }
  }
}
