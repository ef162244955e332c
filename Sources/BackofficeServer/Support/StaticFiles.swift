import Crypto
import Foundation
import Vapor

/// The files under `Public/`, read once at start and served from memory.
///
/// A request path is looked up as a key; it is never joined onto a folder, so no spelling of
/// `..` can reach outside `Public/`, and answering costs no file-system call. Every file has a
/// content hash for its `ETag`; browsers revalidate (`no-cache`) and get `304` while it holds.
/// The same hash set names the build for the service worker.
struct StaticFiles: Sendable {
  struct File: Sendable {
    var body: ByteBuffer
    var contentType: HTTPMediaType
    var etag: String
  }

  /// Keyed by URL path: `/css/app.css`.
  let files: [String: File]

  /// One hash over every file, so a change to any of them gives a new build id.
  let buildID: String

  static let empty = StaticFiles(files: [:], buildID: "empty")

  init(files: [String: File], buildID: String) {
    self.files = files
    self.buildID = buildID
  }

  /// Reads every regular file under `folder` (hidden files and folders left out).
  init(folder: String) throws {
    let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
    var files: [String: File] = [:]
    var overall = SHA256()
    guard
      let walker = FileManager.default.enumerator(
        at: root, includingPropertiesForKeys: [.isRegularFileKey],
        options: [.skipsHiddenFiles])
    else {
      self.init(files: [:], buildID: "empty")
      return
    }
    var paths: [(String, URL)] = []
    for case let url as URL in walker {
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
      else { continue }
      let full = url.standardizedFileURL.path
      guard full.hasPrefix(root.path + "/") else { continue }
      paths.append((String(full.dropFirst(root.path.count)), url))
    }
    for (path, url) in paths.sorted(by: { $0.0 < $1.0 }) {
      let data = try Data(contentsOf: url)
      let digest = hexString(SHA256.hash(data: data))
      overall.update(data: Data((path + digest).utf8))
      let ext = url.pathExtension.lowercased()
      files[path] = File(
        body: ByteBuffer(data: data),
        contentType: Self.contentTypes[ext] ?? HTTPMediaType.fileExtension(ext) ?? .binary,
        etag: "\"\(digest.prefix(32))\"")
    }
    let buildID = String(hexString(overall.finalize()).prefix(16))
    Self.stampServiceWorker(&files, buildID: buildID)
    self.init(files: files, buildID: buildID)
  }

  /// The service worker's two placeholders filled in: `__BUILD__`, the build id, so every
  /// deploy that changes any file installs a new worker with a new cache of the app shell, and
  /// `"__SHELL_FILES__"`, the list of that shell (every style, script, font and icon, and the
  /// offline page), so no file is forgotten in a list kept by hand.
  static func stampServiceWorker(_ files: inout [String: File], buildID: String) {
    guard var worker = files[serviceWorker],
      let text = worker.body.getString(
        at: worker.body.readerIndex, length: worker.body.readableBytes)
    else { return }
    let shell = files.keys.filter(isShell).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    let stamped = text.replacingOccurrences(of: "__BUILD__", with: buildID)
      .replacingOccurrences(of: "\"__SHELL_FILES__\"", with: shell)
    worker.body = ByteBuffer(string: stamped)
    worker.etag = "\"\(hexString(SHA256.hash(data: Data(stamped.utf8))).prefix(32))\""
    files[serviceWorker] = worker
  }

  static let serviceWorker = "/sw.js"

  /// The files a page needs to start without the network.
  static func isShell(_ path: String) -> Bool {
    ["/css/", "/js/", "/fonts/", "/icons/"].contains { path.hasPrefix($0) }
      && !path.hasSuffix(".md") && !path.hasSuffix(".txt")
      || ["/favicon.svg", "/manifest.webmanifest", "/offline.html"].contains(path)
  }

  static let contentTypes: [String: HTTPMediaType] = [
    "js": HTTPMediaType(type: "text", subType: "javascript", parameters: ["charset": "utf-8"]),
    "css": HTTPMediaType(type: "text", subType: "css", parameters: ["charset": "utf-8"]),
    "json": .json,
    "webmanifest": HTTPMediaType(type: "application", subType: "manifest+json"),
    "svg": HTTPMediaType(type: "image", subType: "svg+xml"),
    "woff2": HTTPMediaType(type: "font", subType: "woff2"),
    "png": .png,
    "html": .html,
    "txt": .plainText,
    "md": .plainText,
  ]
}

/// Answers `GET`/`HEAD` for a file in `StaticFiles`; everything else goes on to the routes.
struct StaticFilesMiddleware: RouteScopedMiddleware {
  let files: StaticFiles

  /// A route whose path no file's path fits (none of the app's) never gets a file instead.
  func passesOn(everyRequestOf route: Route) -> Bool {
    !route.takesOnlySafeMethods
      || !files.files.keys.contains { Self.fits($0, route.path) }
  }

  /// Whether a request for `path` would be routed by `template` (a parameter takes any one
  /// segment, a catch-all the rest).
  static func fits(_ path: String, _ template: [PathComponent]) -> Bool {
    let segments = path.split(separator: "/")
    let template = template.filter {
      if case .constant(let text) = $0 { !text.isEmpty } else { true }
    }
    for (index, component) in template.enumerated() {
      switch component {
      case .catchall: return segments.count >= index
      case .anything, .parameter: if index >= segments.count { return false }
      case .constant(let text):
        if index >= segments.count || segments[index] != text { return false }
      }
    }
    return segments.count == template.count
  }

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    guard request.method == .GET || request.method == .HEAD,
      let file = files.files[request.urlPath]
    else { return try await next.respond(to: request) }
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .eTag, value: file.etag)
    headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
    headers.contentType = file.contentType
    if let sent = request.headers.first(name: .ifNoneMatch),
      sent.split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "")
          == file.etag
      })
    {
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: .ok, headers: headers, body: .init(buffer: file.body))
  }
}

extension Application {
  private struct StaticFilesKey: StorageKey {
    typealias Value = StaticFiles
  }

  var staticFiles: StaticFiles {
    get { storage[StaticFilesKey.self] ?? .empty }
    set { storage[StaticFilesKey.self] = newValue }
  }
}
