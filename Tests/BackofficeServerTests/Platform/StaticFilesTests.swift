import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The service worker is stamped with the build: its cache of the app shell is named after a
/// hash of every file, and it lists every file of the shell, so no deploy forgets either.
@Suite("Static files and the service worker's build")
struct StaticFilesTests {
  private func folder(_ files: [String: String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("backoffice-public-\(UUID().uuidString)")
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root
  }

  private func text(_ file: StaticFiles.File?) throws -> String {
    let file = try #require(file)
    return try #require(file.body.getString(at: 0, length: file.body.readableBytes))
  }

  @Test func theWorkerNamesTheBuildAndEveryShellFile() throws {
    let worker = #"const VERSION = "__BUILD__"; const SHELL_FILES = ["__SHELL_FILES__"];"#
    let root = try folder([
      "sw.js": worker, "js/app.js": "1", "js/new-page.js": "2", "css/app.css": "3",
      "fonts/README.md": "notes", "offline.html": "<p>", "openapi.json": "{}",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let files = try StaticFiles(folder: root.path)
    let served = try text(files.files["/sw.js"])
    #expect(served.contains(#"const VERSION = "\#(files.buildID)";"#))
    #expect(
      served.contains(
        #"const SHELL_FILES = ["/css/app.css", "/js/app.js", "/js/new-page.js", "/offline.html"];"#
      ), "every script and style, and nothing that is not part of the shell")
    #expect(files.files["/sw.js"]?.etag != nil)

    // Any change to any file is a new build, and so a new worker.
    try Data("2, changed".utf8).write(to: root.appendingPathComponent("js/new-page.js"))
    let next = try StaticFiles(folder: root.path)
    #expect(next.buildID != files.buildID)
    #expect(try text(next.files["/sw.js"]).contains(next.buildID))
    #expect(next.files["/sw.js"]?.etag != files.files["/sw.js"]?.etag)
  }

  /// The real worker, as the server serves it: stamped, and listing every script of Public/.
  @Test func theServedWorkerListsEveryScript() async throws {
    try await withApp { t in
      let response = try await t.client().get("/sw.js")
      #expect(response.status == .ok)
      #expect(!response.body.contains("__BUILD__"))
      #expect(!response.body.contains("__SHELL_FILES__"))
      #expect(response.body.contains(t.app.staticFiles.buildID))
      let scripts = try FileManager.default.contentsOfDirectory(
        atPath: repositoryRoot + "/Public/js")
      #expect(scripts.count > 5)
      for script in scripts where script.hasSuffix(".js") {
        #expect(response.body.contains("\"/js/\(script)\""), "\(script)")
      }
    }
  }
}
