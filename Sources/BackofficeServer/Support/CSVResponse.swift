import Vapor

/// A CSV export as a download: `text/csv`, a file name, never cached (the file holds the
/// account's data and is made afresh on each request).
enum CSVResponse {
  static func attachment(_ csv: String, filename: String) -> Response {
    let response = Response(status: .ok, body: .init(string: csv))
    response.headers.replaceOrAdd(name: .contentType, value: "text/csv; charset=utf-8")
    response.headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"\(filename)\"")
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }
}
