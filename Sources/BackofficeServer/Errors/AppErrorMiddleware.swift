import BackofficeCore
import Vapor

/// Turns every error into a response once: the JSON envelope under `/api`, an HTML page
/// elsewhere. Internal details are logged, never shown.
struct AppErrorMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    // A method the address does not take is answered before the router runs: the router would
    // send `PUT /api/v1/expenses/summary` to `PUT /api/v1/expenses/:expenseID` and say 404.
    if request.method != .GET, request.method != .HEAD {
      let allowed = request.application.routeTable.allowed(for: request.url.path)
      if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
        return await notAllowed(request, allowed: allowed)
      }
    }
    do {
      return try await next.respond(to: request)
    } catch is NoRouteFound {
      let allowed = request.application.routeTable.allowed(for: request.url.path)
      guard !allowed.isEmpty else { return await response(for: Abort(.notFound), request: request) }
      return await notAllowed(request, allowed: allowed)
    } catch {
      return await response(for: error, request: request)
    }
  }

  /// `OPTIONS` → 204 with `Allow`; any other method the address does not take → 405 with it.
  private func notAllowed(_ request: Request, allowed: [String]) async -> Response {
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
    if request.method == .OPTIONS {
      return Response(status: .noContent, headers: headers)
    }
    // Made in the request's language: this runs before the language middleware.
    let reason = UILanguage.$current.withValue(request.uiLanguage) {
      L("errors.method_not_allowed", ["method": request.method.rawValue])
    }
    return await response(
      for: Abort(.methodNotAllowed, headers: headers, reason: reason), request: request)
  }

  private func response(for error: any Error, request: Request) async -> Response {
    await UILanguage.$current.withValue(request.uiLanguage) {
      await localizedResponse(for: error, request: request)
    }
  }

  private func localizedResponse(for error: any Error, request: Request) async -> Response {
    let status: HTTPResponseStatus
    let code: String
    let message: String
    var fields: [String: String]? = nil
    var headers = HTTPHeaders()

    switch error {
    case let apiError as APIError:
      status = apiError.status
      code = apiError.code
      message = apiError.message
      fields = apiError.fields.isEmpty ? nil : apiError.fields
    case let abort as any AbortError:
      status = abort.status
      code = Self.code(for: abort.status)
      message = Self.publicMessage(status: abort.status, reason: abort.reason)
      headers = abort.headers
    case is DecodingError:
      status = .badRequest
      code = "bad_request"
      message = L("errors.bad_body")
    case _ where WorkspaceDeletion.isMissingParent(error):
      // The database refused a row whose parent is gone: a write that raced the deletion of
      // its workspace (the references make sure it lands nowhere) or of its record.
      status = .notFound
      if let id = request.workspaceContext?.id,
        (try? await WorkspaceStore(db: request.db).find(id)) == nil
      {
        code = WorkspaceDeletion.gone.code
        message = WorkspaceDeletion.gone.message
      } else {
        code = "not_found"
        message = L("errors.gone_meanwhile")
      }
    default:
      status = .internalServerError
      code = "internal_error"
      message = L("errors.internal")
    }

    if status.code >= 500 {
      request.logger.report(error: error)
    } else {
      request.logger.debug("\(status.code) \(request.method) \(request.url.path): \(error)")
    }

    if Self.wantsJSON(request) {
      let envelope = ErrorEnvelope(error: .init(code: code, message: message, fields: fields))
      let response = Response(status: status, headers: headers)
      do {
        try response.content.encode(envelope, using: JSONEncoder.api)
      } catch {
        response.body = .init(string: #"{"error":{"code":"internal_error","message":"Error"}}"#)
      }
      return response
    }
    let html = ErrorPageView(status: status, message: message).render(
      context: PageContext(request: request))
    let response = Response(status: status, headers: headers, body: .init(string: html))
    response.headers.contentType = .html
    return response
  }

  static func wantsJSON(_ request: Request) -> Bool {
    request.urlPath.hasPrefix("/api/")
  }

  static func code(for status: HTTPResponseStatus) -> String {
    switch status.code {
    case 400: "bad_request"
    case 401: "unauthorized"
    case 403: "forbidden"
    case 404: "not_found"
    case 405: "method_not_allowed"
    case 409: "conflict"
    case 412: "precondition_failed"
    case 413: "payload_too_large"
    case 415: "unsupported_media_type"
    case 422: "validation_failed"
    case 429: "too_many_requests"
    default: status.code >= 500 ? "internal_error" : "error"
    }
  }

  /// The app's own reasons are shown as they are (they are made in the request's language);
  /// a bare status, and the reasons the framework writes in English for media types, get the
  /// catalogue's sentence; server errors get a generic one so internals never leak.
  static func publicMessage(status: HTTPResponseStatus, reason: String) -> String {
    let bare = reason == status.reasonPhrase
    switch status.code {
    case 404: return L("api.not_found")
    case 413: return L("errors.too_large")
    case 415: return L("errors.unsupported_media_type")
    case 500...: return L("errors.internal")
    default: break
    }
    guard bare else { return reason }
    switch status.code {
    case 400: return L("errors.bad_request")
    case 401: return L("auth.sign_in_to_continue")
    case 403: return L("errors.forbidden")
    case 429: return L("errors.too_many_requests")
    default: return L("errors.other.heading")
    }
  }
}
