import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The workspace a page was opened in, carried by what the page sends back.
///
/// A browser works in one workspace at a time, but a page stays open while the browser moves on:
/// its person is removed (and their next request, whichever tab or background sync makes it,
/// moves the session to another workspace of theirs), or they switch in another tab. The CSRF
/// token a page prints names the page's workspace after the session's secret
/// (`<secret>.<workspace id>`), so its forms, its scripts and the offline outbox, which all send
/// the page's token, say where they belong. A change sent from a page of another workspace than
/// the one the browser works in now is refused before any handler runs (409), saying why,
/// instead of landing in the wrong workspace or being told its record "was deleted".
enum FormWorkspace {
  /// The token a page of `workspace` prints.
  static func token(_ secret: String, workspace: UUID?) -> String {
    guard let workspace else { return secret }
    return secret + "." + workspace.uuidString.lowercased()
  }

  /// The session's secret and the page's workspace from a token sent back. A token without a
  /// workspace (signed-out forms, a script that names none) is the secret alone.
  static func read(_ sent: String) -> (secret: String, workspace: UUID?) {
    guard let dot = sent.lastIndex(of: "."),
      let workspace = UUID(uuidString: String(sent[sent.index(after: dot)...]))
    else { return (sent, nil) }
    return (String(sent[..<dot]), workspace)
  }

  /// Refuses a change to records or members sent from a page of `sentFrom` while the browser
  /// works in another workspace: 409 saying whether the person lost that workspace or switched.
  static func check(_ request: Request, route: AppRoute, sentFrom: UUID?) async throws {
    guard let workspace = request.workspaceContext,
      route.access == .write || route.access == .manage
    else { return }
    // Every page of a signed-in browser prints its workspace in the token; a change that names
    // none (a form or script from before, a hand-made request) cannot say where it belongs, so
    // it is treated like an expired form rather than written wherever the browser is now.
    guard let sentFrom else {
      if request.browserSession != nil { throw CSRFError() }
      return
    }
    guard sentFrom != workspace.id else { return }
    // The same deletion sent twice at once (a double tap, two tabs): the copy that comes after
    // the workspace went is answered as the deletion was, not as a form from a lost workspace.
    if route.method == Routes.workspaceDelete.method,
      route.template == Routes.workspaceDelete.template,
      try await WorkspaceStore(db: request.db).find(sentFrom) == nil
    {
      request.repeatsADeletion = true
      return
    }
    let userID = try request.userID
    let stillMember =
      try await WorkspaceStore(db: request.db).isMember(userID, of: sentFrom)
    let message: String
    if stillMember {
      let from = try await WorkspaceStore(db: request.db).find(sentFrom)?.name ?? ""
      message = L("workspace.switched_meanwhile", ["from": from, "name": workspace.name])
    } else {
      message = L("workspace.left_meanwhile", ["name": workspace.name])
    }
    if AppErrorMiddleware.wantsJSON(request) {
      throw APIError(.conflict, code: "workspace_changed", message: message)
    }
    throw Abort(.conflict, reason: message)
  }
}
