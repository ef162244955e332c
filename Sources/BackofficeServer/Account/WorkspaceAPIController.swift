import BackofficeCore
import Fluent
import Vapor

/// `/api/v1/workspace…` and `/api/v1/activity`: the workspace a token (or session) works in,
/// its members and invitations, and its log.
struct WorkspaceAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiWorkspace, use: show)
    routes.on(Routes.apiMembers, use: members)
    routes.on(Routes.apiMemberSet, use: setRole)
    routes.on(Routes.apiMemberRemove, use: remove)
    routes.on(Routes.apiInvitationCreate, use: invite)
    routes.on(Routes.apiActivity, use: activity)
  }

  struct Summary: Content {
    @LowercasedID var id: UUID
    var name: String
    var currency: String
    /// The role of the member the request acts for.
    var role: String
    var memberCount: Int
  }

  struct Member: Content {
    @LowercasedID var id: UUID
    var email: String
    var role: String
    var joinedAt: Date?
    /// The account that created the workspace: always an owner, never removed.
    var creator: Bool
  }

  struct MemberInput: Content {
    var userId: String?
    var role: String?
  }

  struct InvitationInput: Content {
    var role: String?
    var days: Int?
  }

  struct CreatedInvitation: Content {
    @LowercasedID var id: UUID
    var role: String
    var expiresAt: Date
    /// The link to send; its secret is shown here only.
    var url: String
  }

  struct Line: Content {
    @LowercasedID var id: UUID
    var actor: String
    var action: String
    var area: String
    var recordId: String?
    var recordName: String
    var at: Date
    /// The line as the activity page says it, in the request's language.
    var text: String
  }

  @Sendable func show(req: Request) async throws -> Response {
    let workspace = try req.workspace
    let count = try await WorkspaceStore(db: req.db).memberCount(of: workspace.id)
    return try APIResponse.json(
      Summary(
        id: workspace.id, name: workspace.name, currency: workspace.currency,
        role: workspace.role.rawValue, memberCount: count))
  }

  private func member(_ value: WorkspaceMembers.Member) -> Member {
    Member(
      id: value.userID, email: value.email, role: value.role.rawValue, joinedAt: value.joinedAt,
      creator: value.isCreator)
  }

  @Sendable func members(req: Request) async throws -> Response {
    let all = try await WorkspaceController.store(req).list()
    return try APIResponse.json(
      ["items": all.map { member($0) }])
  }

  /// Sets the role of a member (people join through invitations, so an account's existence is
  /// never revealed here).
  @Sendable func setRole(req: Request) async throws -> Response {
    let input = try req.content.decode(MemberInput.self, using: JSONDecoder.api)
    var problems: [String: String] = [:]
    let id = input.userId.flatMap(UUID.init(uuidString:))
    if id == nil { problems["user_id"] = L("workspace.members.user_id_invalid") }
    let role = input.role.flatMap(WorkspaceRole.init(rawValue:))
    if role == nil { problems["role"] = L("workspace.invitations.role_invalid") }
    guard problems.isEmpty, let id, let role else { throw APIError.validation(problems) }
    let store = try WorkspaceController.store(req)
    guard let current = try await store.list().first(where: { $0.userID == id }) else {
      throw APIError.notFound
    }
    if let refusal = try await store.setRole(of: id, to: role) {
      throw APIError(.conflict, code: "member_refused", message: refusal.message)
    }
    await ActivityLog.record(
      req, .roleChanged, .member, id: id, name: "\(current.email) → \(role.title)")
    var changed = current
    changed.role = role
    return try APIResponse.json(member(changed))
  }

  @Sendable func remove(req: Request) async throws -> Response {
    guard let id = req.parameters.get("userID").flatMap(UUID.init(uuidString:)) else {
      throw APIError.notFound
    }
    let store = try WorkspaceController.store(req)
    guard let current = try await store.list().first(where: { $0.userID == id }) else {
      throw APIError.notFound
    }
    if let refusal = try await store.remove(id) {
      throw APIError(.conflict, code: "member_refused", message: refusal.message)
    }
    await ActivityLog.record(req, .removed, .member, id: id, name: current.email)
    return Response(status: .noContent)
  }

  @Sendable func invite(req: Request) async throws -> Response {
    let input = try req.content.decode(InvitationInput.self, using: JSONDecoder.api)
    switch InvitationRules.read(role: input.role, days: input.days.map(String.init)) {
    case .failure(let problems):
      throw APIError.validation(problems.fields.mapValues(\.message))
    case .success(let choice):
      let made = try await WorkspaceController.store(req).invite(
        role: choice.role, days: choice.days, by: try req.userID, now: req.now,
        clients: req.clients)
      await ActivityLog.record(req, .invited, .invitation, id: made.id, name: choice.role.title)
      return try APIResponse.json(
        CreatedInvitation(
          id: made.id, role: choice.role.rawValue, expiresAt: made.expiresAt,
          url: req.publicBaseURL + Routes.join.href(["token": made.secret])),
        status: .created)
    }
  }

  @Sendable func activity(req: Request) async throws -> Response {
    let paging = try Paging.read(req)
    let found = try await ActivityLog.page(
      workspaceID: try req.workspaceID, page: paging.page, per: paging.perPage, on: req.db)
    let lines = found.entries.map {
      Line(
        id: $0.id, actor: $0.actorEmail, action: $0.action.rawValue, area: $0.area.rawValue,
        recordId: $0.recordID?.uuidString.lowercased(), recordName: $0.recordName, at: $0.at,
        text: $0.sentence)
    }
    return try ListPage(items: lines, paging: paging, total: found.total).response(for: req)
  }
}
