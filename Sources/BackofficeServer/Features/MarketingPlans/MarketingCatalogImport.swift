import BackofficeCore
import Foundation

/// Reads a catalog from uploaded files: either the original documents, one file each named
/// `{document id}.json`, or one combined file `{"<document id>": <document>, …}` (what
/// "Download catalog" writes). Every problem is reported with the file it is in.
enum MarketingCatalogImport {
  struct Problem: Hashable, Sendable {
    /// The uploaded file's name, or nil for a problem with the set as a whole.
    var file: String?
    var message: String

    var text: String { file.map { "\($0): \(message)" } ?? message }
  }

  /// Everything wrong with an upload.
  struct Failure: Error, Hashable, Sendable {
    var problems: [Problem]
  }

  struct Upload: Sendable {
    var filename: String
    var data: Data
  }

  static func read(_ uploads: [Upload]) -> Result<MarketingCatalog, Failure> {
    let files = uploads.filter { !($0.filename.isEmpty && $0.data.isEmpty) }
    guard !files.isEmpty else {
      return .failure(
        Failure(problems: [
          Problem(file: nil, message: L("marketing.import.no_files"))
        ]))
    }
    if files.count == 1, let combined = combinedDocuments(files[0].data) {
      return assemble(combined, names: [:])
    }
    var documents: [String: Data] = [:]
    var names: [String: String] = [:]
    var problems: [Problem] = []
    for file in files {
      let name = (file.filename as NSString).lastPathComponent
      guard name.lowercased().hasSuffix(".json"), name.count > 5 else {
        problems.append(
          Problem(
            file: name, message: L("marketing.import.bad_name")))
        continue
      }
      let id = String(name.dropLast(5))
      guard documents[id] == nil else {
        problems.append(Problem(file: name, message: L("marketing.import.uploaded_twice")))
        continue
      }
      documents[id] = file.data
      names[id] = name
    }
    guard problems.isEmpty else { return .failure(Failure(problems: problems)) }
    return assemble(documents, names: names)
  }

  /// Checks each document on its own first, so every broken file is named at once.
  private static func assemble(_ documents: [String: Data], names: [String: String])
    -> Result<MarketingCatalog, Failure>
  {
    let targetingID = MarketingCatalog.targetingDocumentID
    func label(_ id: String) -> String { names[id] ?? id }
    guard let targetingData = documents[targetingID] else {
      return .failure(
        Failure(problems: [
          Problem(
            file: nil,
            message: L("marketing.import.targeting_missing", ["file": "\(targetingID).json"]))
        ]))
    }
    let targeting: TargetingDocument
    do throws(CatalogDocumentError) {
      targeting = try TargetingDocument.decode(targetingData, documentID: targetingID)
    } catch {
      return .failure(
        Failure(problems: [Problem(file: label(targetingID), message: error.message)]))
    }
    var problems: [Problem] = []
    let used = Set(targeting.channelIDs)
    for id in documents.keys.sorted() where id != targetingID {
      if !used.contains(id) {
        problems.append(
          Problem(file: label(id), message: L("marketing.import.unknown_channel_file")))
        continue
      }
      do throws(CatalogDocumentError) {
        _ = try ChannelDocument.decode(
          documents[id] ?? Data(), documentID: id, name: targeting.channelName(of: id))
      } catch {
        problems.append(Problem(file: label(id), message: error.message))
      }
    }
    for target in targeting.targets {
      for reference in target.availableChannels where documents[reference.channelID] == nil {
        let problem = Problem(
          file: nil,
          message: L(
            "marketing.import.channel_missing",
            ["file": "\(reference.channelID).json", "channel": reference.channel]))
        if !problems.contains(problem) { problems.append(problem) }
      }
    }
    guard problems.isEmpty else { return .failure(Failure(problems: problems)) }
    do throws(MarketingCatalogError) {
      return .success(try MarketingCatalog.decode(documents: documents))
    } catch {
      return .failure(Failure(problems: [Problem(file: nil, message: error.message)]))
    }
  }

  /// The documents of a combined file, or nil when the file is not one. Each value is written
  /// back out through `JSONValue`, which keeps numbers as exact decimals.
  static func combinedDocuments(_ data: Data) -> [String: Data]? {
    guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: data),
      object[MarketingCatalog.targetingDocumentID] != nil
    else { return nil }
    let encoder = JSONEncoder()
    var documents: [String: Data] = [:]
    for (id, value) in object {
      documents[id] = try? encoder.encode(value)
    }
    return documents
  }

  /// The catalog as one combined file, readable by `read`.
  static func export(_ catalog: MarketingCatalog) -> Data {
    let (targeting, channels) = catalog.documents
    var text = "{\n  \"\(MarketingCatalog.targetingDocumentID)\": " + json(targeting)
    for id in catalog.channels.map(\.id) {
      guard let document = channels[id] else { continue }
      text += ",\n  \"\(id)\": " + json(document)
    }
    return Data((text + "\n}\n").utf8)
  }

  private static func json(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }
}

/// Any JSON value, with numbers as `Decimal` so prices survive a round trip digit for digit.
enum JSONValue: Codable, Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Decimal)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Decimal.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
