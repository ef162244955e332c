import BackofficeCore
import Fluent
import Vapor

/// Settings → Members and Activity, switching workspace, and joining with an invitation.
struct WorkspaceController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.members, use: members)
    routes.on(Routes.memberRole, use: changeRole)
    routes.on(Routes.memberRemove, use: remove)
    routes.on(Routes.workspaceLeave, use: leave)
    routes.on(Routes.invitationCreate, use: invite)
    routes.on(Routes.invitationRevoke, use: revoke)
    routes.on(Routes.workspaceRename, use: rename)
    routes.on(Routes.workspaceDelete, use: deleteWorkspace)
    routes.on(Routes.activity, use: activity)
    routes.on(Routes.workspaceSwitch, use: switchWorkspace)
  }

  static func store(_ req: Request) throws -> WorkspaceMembers {
    WorkspaceMembers(db: req.db, workspaceID: try req.workspaceID)
  }

  /// The members page, with `change` applied to its model (a refusal, a new link, errors).
  static func page(
    _ req: Request, status: HTTPResponseStatus = .ok,
    _ change: (inout MembersView) -> Void = { _ in }
  ) async throws -> Response {
    let workspace = try req.workspace
    let store = try Self.store(req)
    var view = MembersView(
      workspace: workspace, me: try req.userID, members: try await store.list(),
      invitations: workspace.role == .owner ? try await store.pendingInvitations(now: req.now) : [],
      locale: .resolve(try req.user.locale))
    if workspace.role == .owner, req.application.mailDelivery != nil {
      view.mailOn = true
      view.invitationMails = try await MailOutbox(db: req.db).recent(
        requestedBy: try req.userID, kind: .invitation, workspace: workspace.id, limit: 5)
    }
    change(&view)
    return req.page(view, status: status)
  }

  @Sendable func members(req: Request) async throws -> Response {
    try await Self.page(req)
  }

  struct RoleForm: Content {
    var role: String?
  }

  /// Another member's id in the path, of this workspace; 404 for anyone else (as for records).
  static func member(_ req: Request) async throws -> WorkspaceMembers.Member {
    guard let id = req.parameters.get("userID").flatMap(UUID.init(uuidString:)),
      let member = try await store(req).list().first(where: { $0.userID == id })
    else { throw Abort(.notFound) }
    return member
  }

  @Sendable func changeRole(req: Request) async throws -> Response {
    let member = try await Self.member(req)
    let form = try req.content.decode(RoleForm.self)
    guard let role = form.role.flatMap(WorkspaceRole.init(rawValue:)) else {
      return try await Self.page(req, status: .unprocessableEntity) {
        $0.refusal = L("workspace.invitations.role_invalid")
      }
    }
    if let refusal = try await Self.store(req).setRole(of: member.userID, to: role) {
      return try await Self.page(req, status: .conflict) { $0.refusal = refusal.message }
    }
    await ActivityLog.record(
      req, .roleChanged, .member, id: member.userID, name: "\(member.email) → \(role.title)")
    req.flash(
      .success, L("workspace.members.role_saved", ["email": member.email, "role": role.title]))
    return req.redirect(to: Routes.members.href())
  }

  @Sendable func remove(req: Request) async throws -> Response {
    let member = try await Self.member(req)
    if let refusal = try await Self.store(req).remove(member.userID) {
      return try await Self.page(req, status: .conflict) { $0.refusal = refusal.message }
    }
    await ActivityLog.record(req, .removed, .member, id: member.userID, name: member.email)
    req.flash(.success, L("workspace.members.removed", ["email": member.email]))
    return req.redirect(to: Routes.members.href())
  }

  /// Leaving: this browser moves to the person's own workspace (or the first left) on its
  /// next request.
  @Sendable func leave(req: Request) async throws -> Response {
    let user = try req.user
    let workspace = try req.workspace
    if let refusal = try await Self.store(req).remove(try user.requireID()) {
      return try await Self.page(req, status: .conflict) { $0.refusal = refusal.message }
    }
    await ActivityLog.record(req, .left, .member, id: try user.requireID(), name: user.email)
    // The next request finds no membership and moves the browser on (`SessionMiddleware`).
    req.flash(.success, L("workspace.left", ["name": workspace.name]))
    return req.redirect(to: Routes.home.href())
  }

  struct InviteForm: Content {
    var role: String?
    var days: String?
    /// Where to send the link (with mail on); empty for a link to copy only.
    var email: String?
  }

  @Sendable func invite(req: Request) async throws -> Response {
    let form = try req.content.decode(InviteForm.self)
    switch InvitationRules.read(role: form.role, days: form.days) {
    case .failure(let problems):
      return try await Self.page(req, status: .unprocessableEntity) {
        $0.inviteErrors = problems.fields.mapValues(\.message)
      }
    case .success(let choice):
      let mailOn = req.application.mailDelivery != nil
      let recipient = EmailAddress.normalize(
        String((form.email ?? "").prefix(EmailAddress.maxLength + 1)))
      if mailOn, !recipient.isEmpty, let problem = EmailAddress.problem(with: recipient) {
        return try await Self.page(req, status: .unprocessableEntity) {
          $0.inviteErrors = ["email": problem]
          $0.inviteEmail = recipient
        }
      }
      let made = try await Self.store(req).invite(
        role: choice.role, days: choice.days, by: try req.userID, now: req.now,
        clients: req.clients)
      await ActivityLog.record(req, .invited, .invitation, id: made.id, name: choice.role.title)
      let link = req.publicBaseURL + Routes.join.href(["token": made.secret])
      if mailOn, !recipient.isEmpty {
        let workspace = try req.workspace
        let inviter = try req.user.email
        try await req.application.queueMail(
          OutgoingMail(
            kind: .invitation, to: recipient,
            subject: L(
              "mail.invitation.subject", ["inviter": inviter, "workspace": workspace.name]),
            body: L(
              "mail.invitation.body",
              [
                "inviter": inviter, "workspace": workspace.name, "role": choice.role.title,
                "site": req.publicBaseURL, "link": link,
                "date": BackofficeLocale.resolve(try req.user.locale).formatDateTime(
                  made.expiresAt, timeZone: .gmt) + " UTC",
              ]),
            requestedBy: try req.userID, workspaceID: workspace.id),
          on: req.db)
      }
      // The page shows the state after the change: the new link is waiting, and can be
      // revoked, like any other.
      return try await Self.page(req, status: .created) {
        $0.newInvitation = (link, choice.role, made.expiresAt)
      }
    }
  }

  @Sendable func revoke(req: Request) async throws -> Response {
    guard let id = req.parameters.get("invitationID").flatMap(UUID.init(uuidString:)),
      try await Self.store(req).revoke(id, now: req.now)
    else { throw Abort(.notFound) }
    req.flash(.success, L("workspace.invitations.revoked"))
    return req.redirect(to: Routes.members.href())
  }

  struct NameForm: Content {
    var name: String?
  }

  @Sendable func rename(req: Request) async throws -> Response {
    let form = try req.content.decode(NameForm.self)
    switch WorkspaceName.validate(form.name ?? "") {
    case .failure(let problem):
      return try await Self.page(req, status: .unprocessableEntity) {
        $0.nameValue = form.name ?? ""
        $0.nameError = problem.message
      }
    case .success(let name):
      let id = try req.workspaceID
      try await WorkspaceStore(db: req.db).rename(id, to: name)
      await ActivityLog.record(req, .changed, .workspace, id: id, name: name)
      req.flash(.success, L("workspace.name.saved"))
      return req.redirect(to: Routes.members.href())
    }
  }

  struct DeleteForm: Content {
    var confirm: String?
  }

  /// Deletes the workspace and everything in it, once its name is typed: a mistyped name
  /// deletes nothing and says so by the field. This browser moves to another workspace of
  /// the person's (a new, empty one of their own when it was their only one).
  @Sendable func deleteWorkspace(req: Request) async throws -> Response {
    let form = try req.content.decode(DeleteForm.self)
    let workspace = try req.workspace
    let typed = (form.confirm ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    if req.repeatsADeletion {
      req.flash(.success, L("workspace.delete.done", ["name": typed]))
      return req.redirect(to: Routes.home.href())
    }
    guard typed == workspace.name else {
      return try await Self.page(req, status: .unprocessableEntity) {
        $0.deleteValue = String((form.confirm ?? "").prefix(WorkspaceName.maxLength * 2))
        $0.deleteError = L("workspace.delete.mismatch", ["name": workspace.name])
      }
    }
    try await WorkspaceDeletion.delete(workspace.id, named: workspace.name, on: req.db)
    // The next request finds no membership and moves the browser on (`SessionMiddleware`),
    // to a new, empty workspace of their own when this was their only one.
    req.flash(.success, L("workspace.delete.done", ["name": workspace.name]))
    return req.redirect(to: Routes.home.href())
  }

  @Sendable func activity(req: Request) async throws -> Response {
    let workspace = try req.workspace
    let requested = Paging.pageNumber(req)
    var found = try await ActivityLog.page(
      workspaceID: workspace.id, page: requested, per: ActivityLog.perPage, on: req.db)
    let window = PageWindow(requested: requested, perPage: ActivityLog.perPage, total: found.total)
    if window.page != requested {
      found = try await ActivityLog.page(
        workspaceID: workspace.id, page: window.page, per: ActivityLog.perPage, on: req.db)
    }
    return req.page(
      ActivityView(
        workspace: workspace, entries: found.entries, window: window,
        locale: .resolve(try req.user.locale)))
  }

  struct SwitchForm: Content {
    var workspace: String?
    var back: String?
  }

  /// Works in another of the person's workspaces from now on (this browser).
  @Sendable func switchWorkspace(req: Request) async throws -> Response {
    let form = try req.content.decode(SwitchForm.self)
    let user = try req.user
    guard let id = form.workspace.flatMap(UUID.init(uuidString:)),
      let target = try await WorkspaceStore(db: req.db).workspaces(of: try user.requireID())
        .first(where: { $0.id == id }),
      let session = req.browserSession
    else { throw Abort(.notFound) }
    try await BrowserSessionStore(db: req.db).setWorkspace(id: session.id, workspaceID: target.id)
    req.flash(.success, L("workspace.switched", ["name": target.name]))
    // Back to the same area, never to a record of the workspace just left.
    let back = form.back.flatMap { LocalPath.validated($0) }.flatMap { path in
      NavSection.areas.map(\.href).first { $0 == path }
    }
    return req.redirect(to: back ?? Routes.home.href())
  }
}

/// An invitation's link: open to everyone (a signed-out visitor is shown how to sign in or
/// create an account first), joining needs a signed-in browser.
struct JoinController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.join, use: show)
    routes.on(Routes.joinSubmit, use: join)
  }

  @Sendable func show(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    guard let offer = try await Invitations.offer(secret: secret, now: req.now, on: req.db) else {
      return req.page(JoinView(state: .unusable, secret: ""), status: .notFound)
    }
    guard let user = req.signedInUser else {
      return req.page(
        JoinView(
          state: .signedOut(offer, next: Routes.join.href(["token": secret]), signupOpen: true),
          secret: secret))
    }
    if try await WorkspaceStore(db: req.db).isMember(user.requireID(), of: offer.workspaceID) {
      return req.page(JoinView(state: .alreadyMember(offer.workspaceName), secret: secret))
    }
    return req.page(JoinView(state: .offer(offer), secret: secret))
  }

  @Sendable func join(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    guard let user = req.signedInUser else {
      return req.redirect(
        to: Routes.signIn.href(query: ["next": Routes.join.href(["token": secret])]))
    }
    switch try await Invitations.join(
      secret: secret, userID: try user.requireID(), now: req.now, on: req.db)
    {
    case .failure(.unusable):
      return req.page(JoinView(state: .unusable, secret: ""), status: .notFound)
    case .failure(.alreadyMember(let id)):
      let name = try await WorkspaceStore(db: req.db).find(id)?.name ?? ""
      return req.page(JoinView(state: .alreadyMember(name), secret: secret), status: .conflict)
    case .success(let offer):
      // The browser works in the workspace just joined.
      if let session = req.browserSession {
        try await BrowserSessionStore(db: req.db).setWorkspace(
          id: session.id, workspaceID: offer.workspaceID)
      }
      await ActivityLog.record(
        .joined, .member, id: try user.requireID(), name: offer.role.title,
        workspaceID: offer.workspaceID, actor: user, now: req.now, on: req.db,
        logger: req.logger)
      req.flash(.success, L("workspace.join.done", ["name": offer.workspaceName]))
      return req.redirect(to: Routes.home.href())
    }
  }
}
