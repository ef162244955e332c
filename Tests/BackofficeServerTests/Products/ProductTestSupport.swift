import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Small image files whose headers are real (the server reads only the header).
enum ProductImages {
  static func png(width: Int = 4, height: Int = 3, padding: Int = 0) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += [0, 0, 0, 13] + Array("IHDR".utf8) + be32(width) + be32(height)
    bytes += [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    bytes += [UInt8](repeating: 0, count: padding)
    bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    return Data(bytes)
  }

  static func jpeg(width: Int = 5, height: Int = 7) -> Data {
    var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0]
    bytes += [1, 1, 0, 0, 1, 0, 1, 0, 0]
    bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08] + be16(height) + be16(width) + [3]
    bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    bytes += [0xFF, 0xD9]
    return Data(bytes)
  }

  private static func be32(_ value: Int) -> [UInt8] {
    [
      UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  private static func be16(_ value: Int) -> [UInt8] {
    [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}

/// One part of a multipart body.
struct ProductPart {
  var name: String
  var value: Data
  var filename: String? = nil
  var contentType: String? = nil

  static func text(_ name: String, _ value: String) -> ProductPart {
    ProductPart(name: name, value: Data(value.utf8))
  }

  static func file(
    _ name: String, _ data: Data, filename: String, type: String = "application/octet-stream"
  ) -> ProductPart {
    ProductPart(name: name, value: data, filename: filename, contentType: type)
  }
}

func productMultipartBody(_ parts: [ProductPart], boundary: String) -> Data {
  var body = Data()
  for part in parts {
    var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
    if let filename = part.filename { head += "; filename=\"\(filename)\"" }
    head += "\r\n"
    if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
    body.append(Data((head + "\r\n").utf8))
    body.append(part.value)
    body.append(Data("\r\n".utf8))
  }
  body.append(Data("--\(boundary)--\r\n".utf8))
  return body
}

extension TestClient {
  /// Posts a multipart form as the product form does, with the page's CSRF token.
  func postProductForm(
    _ path: String, _ parts: [ProductPart], csrf: Bool = true, headers extra: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    let boundary = "----products-\(UUID().uuidString)"
    var all = parts
    if csrf, let token = self.csrf { all.append(.text(CSRFMiddleware.fieldName, token)) }
    if !parts.contains(where: { $0.name == VersionField.name }), let version {
      all.append(.text(VersionField.name, version))
    }
    var headers = extra
    headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    return try await send(
      .POST, path, headers: headers, bytes: productMultipartBody(all, boundary: boundary))
  }

  /// Adds a product through the form and returns its id.
  @discardableResult
  func addProduct(
    name: String, type: String = "Product", price: String = "10.00", tax: String = "18",
    photo: Data? = nil, filename: String = "photo.jpg", db: any Database
  ) async throws -> UUID {
    try await get("/products/new")
    var parts: [ProductPart] = [
      .text("name", name), .text("type", type), .text("price", price), .text("tax", tax),
    ]
    if let photo { parts.append(.file("photo", photo, filename: filename)) }
    let response = try await postProductForm("/products", parts)
    #expect(response.status == .seeOther, "add failed: \(response.status) \(response.body)")
    try await get("/products")
    let record = try await ProductRecord.query(on: db).filter(\.$name == name)
      .sort(\.$number, .descending).first()
    return try #require(record?.id)
  }

  /// A JSON request with a bearer token (or the session when `token` is nil).
  @discardableResult
  func productAPI(
    _ method: HTTPMethod, _ path: String, token: String?, body: String? = nil,
    headers extra: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    var headers = extra
    if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
    if body != nil { headers.replaceOrAdd(name: .contentType, value: "application/json") }
    return try await send(method, path, headers: headers, body: body)
  }

  /// A product created through the API; returns its JSON.
  @discardableResult
  func createProduct(
    token: String, name: String, type: String = "Product", price: String = "10.00",
    tax: String = "18", key: String? = nil
  ) async throws -> [String: Any] {
    var headers = HTTPHeaders()
    if let key { headers.replaceOrAdd(name: "Idempotency-Key", value: key) }
    let response = try await productAPI(
      .POST, "/api/v1/products", token: token,
      body: productJSON(name: name, type: type, price: price, tax: tax), headers: headers)
    #expect(response.status == .created, "create failed: \(response.status) \(response.body)")
    return try response.json()
  }
}

func productJSON(
  name: String?, type: String? = "Product", price: String? = "10.00", tax: String? = "18",
  extra: [String: Any] = [:]
) -> String {
  var object: [String: Any] = extra
  if let name { object["name"] = name }
  if let type { object["type"] = type }
  if let price { object["price"] = price }
  if let tax { object["tax"] = tax }
  let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  return String(decoding: data, as: UTF8.self)
}

extension TestResponse {
  /// The text of the error slot under a form field.
  func productFieldError(_ field: String) -> String? {
    firstMatch(#"id="field-\#(field)-error"[^>]*>([^<]*)</p>"#)
  }

  func productInputValue(_ field: String) -> String? {
    firstMatch(#"id="field-\#(field)"[^>]*value="([^"]*)""#)
  }

  /// Card names in grid order.
  var productNames: [String] {
    productMatches(#"<h3 class="product-name"><a href="[^"]*" title="[^"]*">([^<]*)</a>"#)
  }

  func productMatches(_ pattern: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
      Range($0.range(at: 1), in: body).map { String(body[$0]) }
    }
  }

  func productJSONArray() throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
    return try #require(object as? [[String: Any]], "not a JSON array: \(body)")
  }

  var productErrorFields: [String: String] {
    ((try? json())?["error"] as? [String: Any])?["fields"] as? [String: String] ?? [:]
  }

  var productErrorCode: String? {
    ((try? json())?["error"] as? [String: Any])?["code"] as? String
  }
}
