import BackofficeCore
import Foundation

/// Settings → Members: who is in the workspace and with which role; for owners also the
/// workspace's name, invitations and changing or removing members.
struct MembersView: PageView {
  var workspace: WorkspaceContext
  var me: UUID
  var members: [WorkspaceMembers.Member]
  var invitations: [WorkspaceMembers.PendingInvitation] = []
  /// A link just made: shown at the top, once (its secret is not kept).
  var newInvitation: (link: String, role: WorkspaceRole, expiresAt: Date)? = nil
  var nameValue: String = ""
  var nameError: String? = nil
  var inviteErrors: [String: String] = [:]
  var inviteEmail: String = ""
  /// Mail is on: the invitation form offers to send the link, and shows what became of the
  /// last links sent.
  var mailOn = false
  var invitationMails: [MailOutbox.Entry] = []
  var deleteValue: String = ""
  var deleteError: String? = nil
  /// Why the last change was refused ("The person who created the workspace stays its owner.").
  var refusal: String? = nil
  var locale: BackofficeLocale

  var title: String { L("workspace.members.title") }
  var section: NavSection? { .settings }

  private var owner: Bool { workspace.role == .owner }
  private let utc = TimeZone(identifier: "UTC") ?? .gmt

  func content(context: PageContext) -> HTMLNode {
    H.group([
      H.p(
        [.class("back-link")], [H.a(Routes.settings.href(), text: L("workspace.back_to_settings"))]),
      H.h1(L("workspace.members.heading", ["name": workspace.name])),
      newInvitationNode,
      refusal.map { H.div([.class("flash flash-error"), .role("alert")], [H.text($0)]) } ?? H.empty,
      H.p(
        [.class("hint")],
        L("workspace.members.your_role", ["role": workspace.role.title])
          + " " + workspace.role.summary),
      membersSection(context: context),
      owner ? invitationsSection(context: context) : H.empty,
      owner ? renameSection(context: context) : H.empty,
      H.p(
        [], [H.a(Routes.activity.href(), [.class("button")], text: L("workspace.activity.open"))]),
      leaveSection(context: context),
      owner ? deleteSection(context: context) : H.empty,
    ])
  }

  var newInvitationNode: HTMLNode {
    guard let newInvitation else { return H.empty }
    return H.div(
      [.class("flash flash-success new-token"), .role("status")],
      [
        H.p(
          [],
          L(
            "workspace.invitations.created",
            [
              "role": newInvitation.role.title,
              "date": locale.formatDateTime(newInvitation.expiresAt, timeZone: utc),
            ])),
        H.code([.class("secret"), .id("new-invitation")], [H.text(newInvitation.link)]),
        H.button(
          L("settings.tokens.copy"),
          [.type("button"), .class("button"), .data("copy-target", "new-invitation")]),
      ])
  }

  func membersSection(context: PageContext) -> HTMLNode {
    H.section(
      [.class("card"), .aria(.labelledby, "members")],
      [
        H.h2(L("workspace.members.list"), [.id("members")]),
        H.ul([.class("token-list member-list")], members.map { memberRow($0, context: context) }),
      ])
  }

  private func memberRow(_ member: WorkspaceMembers.Member, context: PageContext) -> HTMLNode {
    let creator = member.isCreator
    var notes: [String] = []
    if member.userID == me { notes.append(L("workspace.members.you")) }
    if creator { notes.append(L("workspace.members.creator")) }
    let joined = member.joinedAt.map { locale.formatDate($0, timeZone: utc) } ?? "—"
    var controls: [HTMLNode] = []
    if owner && !creator {
      controls.append(
        postForm(
          action: Routes.memberRole.href(id: member.userID), csrf: context.csrf,
          attributes: [.class("inline-form member-role")],
          [
            SelectView(
              name: "role", label: L("workspace.members.role_of", ["email": member.email]),
              options: WorkspaceRole.allCases.map { ($0.rawValue, $0.title) },
              selected: member.role.rawValue,
              // One picker per member, and the invitation form's own: each its own id.
              fieldID: "member-role-\(member.userID.uuidString.lowercased())"
            ).render(),
            H.button(L("workspace.members.change_role"), [.class("button")]),
          ]))
      controls.append(
        confirmButton(
          action: Routes.memberRemove.href(id: member.userID), csrf: context.csrf,
          label: L("workspace.members.remove"),
          confirm: L("workspace.members.remove_confirm", ["email": member.email]),
          confirmLabel: L("workspace.members.remove_yes")))
    }
    return H.li(
      [.class("token-row member-row"), .data("member", member.email)],
      [
        H.div(
          [],
          [
            H.strong([], H.email(member.email)),
            H.span([.class("role-chip")], member.role.title),
            H.p(
              [.class("muted small")],
              ([L("workspace.members.joined", ["date": joined])] + notes).joined(separator: " · ")),
          ]),
        controls.isEmpty ? H.empty : H.div([.class("member-controls")], controls),
      ])
  }

  func invitationsSection(context: PageContext) -> HTMLNode {
    H.section(
      [.class("card"), .aria(.labelledby, "invitations")],
      [
        H.h2(L("workspace.invitations.heading"), [.id("invitations")]),
        H.p([.class("hint")], L("workspace.invitations.hint")),
        invitations.isEmpty
          ? H.p([.class("empty-inline")], L("workspace.invitations.none"))
          : H.ul(
            [.class("token-list")],
            invitations.map { invitation in
              H.li(
                [.class("token-row")],
                [
                  H.div(
                    [],
                    [
                      H.strong([], [H.text(invitation.role.title)]),
                      H.p(
                        [.class("muted small")],
                        L(
                          "workspace.invitations.pending",
                          [
                            "date": locale.formatDateTime(invitation.expiresAt, timeZone: utc),
                            "email": invitation.createdBy,
                          ])),
                    ]),
                  confirmButton(
                    action: Routes.invitationRevoke.href(id: invitation.id), csrf: context.csrf,
                    label: L("workspace.invitations.revoke"),
                    confirm: L("workspace.invitations.revoke_confirm"),
                    confirmLabel: L("workspace.invitations.revoke_yes")),
                ])
            }),
        postForm(
          action: Routes.invitationCreate.href(), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            SelectView(
              name: "role", label: L("workspace.invitations.role"),
              options: InvitationRules.roles.map { ($0.rawValue, "\($0.title) — \($0.summary)") },
              selected: WorkspaceRole.editor.rawValue, error: inviteErrors["role"]
            ).render(),
            SelectView(
              name: "days", label: L("workspace.invitations.lifetime"),
              options: InvitationRules.lifetimes.map {
                (String($0), L("workspace.invitations.days", count: $0))
              },
              selected: String(InvitationRules.defaultLifetime), error: inviteErrors["days"]
            ).render(),
            mailOn
              ? FieldView(
                name: "email", label: L("workspace.invitations.email"), type: "email",
                value: inviteEmail, error: inviteErrors["email"],
                hint: L("workspace.invitations.email_hint"), autocomplete: "off",
                fieldID: "invite-email"
              ).render() : H.empty,
            H.button(L("workspace.invitations.create"), [.class("button button-primary")]),
          ]),
        invitationMailsNode,
      ])
  }

  /// What became of the links sent by mail lately: sent, waiting for another try, or not sent
  /// and why, so a link that did not go out is never lost silently.
  var invitationMailsNode: HTMLNode {
    guard mailOn, !invitationMails.isEmpty else { return H.empty }
    return H.div(
      [.class("mail-status")],
      [
        H.h3([], [H.text(L("workspace.invitations.mail_heading"))]),
        H.ul(
          [.class("plain-list")],
          invitationMails.map { entry in
            let when = locale.formatDateTime(entry.createdAt, timeZone: utc) + " UTC"
            let state = MailOutbox.stateText(entry)
            return H.li(
              entry.status == .failed ? [.class("mail-failed")] : [],
              [
                H.strong([], [H.text(entry.to)]), H.text(" · \(when) · \(state)"),
              ])
          }),
      ])
  }

  func renameSection(context: PageContext) -> HTMLNode {
    H.section(
      [.class("card"), .aria(.labelledby, "workspace-name")],
      [
        H.h2(L("workspace.name.heading"), [.id("workspace-name")]),
        postForm(
          action: Routes.workspaceRename.href(), csrf: context.csrf,
          attributes: [.class("stack")],
          [
            FieldView(
              name: "name", label: L("workspace.name.label"),
              value: nameValue.isEmpty ? workspace.name : nameValue, error: nameError,
              hint: L("workspace.name.hint"), required: true,
              extra: [.maxlength(String(WorkspaceName.maxLength))]
            ).render(),
            H.button(L("workspace.name.save"), [.class("button button-primary")]),
          ]),
      ])
  }

  /// Deleting the workspace: folded until asked for, and only once its name is typed.
  func deleteSection(context: PageContext) -> HTMLNode {
    H.details(
      deleteError == nil
        ? [.class("confirm danger-zone workspace-delete")]
        : [.class("confirm danger-zone workspace-delete"), .open],
      [
        H.summary([.class("button button-danger")], [H.text(L("workspace.delete.open"))]),
        H.div(
          [.class("confirm-panel card"), .role("group"), .aria(.labelledby, "delete-workspace")],
          [
            H.h2(L("workspace.delete.heading"), [.id("delete-workspace")]),
            H.p([], L("workspace.delete.explain", ["name": workspace.name])),
            H.p([], [H.a(Routes.settingsBackup.href(), text: L("workspace.delete.backup_first"))]),
            postForm(
              action: Routes.workspaceDelete.href(), csrf: context.csrf,
              attributes: [.class("stack")],
              [
                FieldView(
                  name: "confirm", label: L("workspace.delete.label", ["name": workspace.name]),
                  value: deleteValue, error: deleteError, required: true, autocomplete: "off",
                  extra: [.spellcheck("false")]
                ).render(),
                H.button(L("workspace.delete.submit"), [.class("button button-danger")]),
              ]),
          ]),
      ])
  }

  func leaveSection(context: PageContext) -> HTMLNode {
    guard members.first(where: { $0.userID == me })?.isCreator != true else { return H.empty }
    return H.div(
      [.class("danger-zone")],
      [
        confirmButton(
          action: Routes.workspaceLeave.href(), csrf: context.csrf,
          label: L("workspace.leave"),
          confirm: L("workspace.leave_confirm", ["name": workspace.name]),
          confirmLabel: L("workspace.leave_yes"))
      ])
  }
}

/// Settings → Activity: who did what in the workspace, newest first, a page at a time.
struct ActivityView: PageView {
  var workspace: WorkspaceContext
  var entries: [ActivityLog.Entry]
  var window: PageWindow
  var locale: BackofficeLocale

  var title: String { L("workspace.activity.title") }
  var section: NavSection? { .settings }

  func content(context: PageContext) -> HTMLNode {
    let utc = TimeZone(identifier: "UTC") ?? .gmt
    return H.group([
      H.p(
        [.class("back-link")], [H.a(Routes.members.href(), text: L("workspace.back_to_members"))]),
      H.h1(L("workspace.activity.heading", ["name": workspace.name])),
      H.p([.class("hint")], L("workspace.activity.hint")),
      entries.isEmpty
        ? emptyState(
          title: L("workspace.activity.empty_title"), message: L("workspace.activity.empty"))
        : H.ol(
          [.class("activity-list card")],
          entries.map { entry in
            H.li(
              [.class("activity-item")],
              [
                H.span([.class("activity-text")], entry.sentence),
                H.time(
                  [.datetime(BackupDate.format(entry.at)), .class("muted small")],
                  [H.text(locale.formatDateTime(entry.at, timeZone: utc))]),
              ])
          }),
      Pagination.nav(window) { Routes.activity.href(query: ["page": $0 > 1 ? String($0) : nil]) },
    ])
  }
}

/// An invitation's link, opened: what it offers and the button to join (or, signed out, the
/// way to sign in or create an account first).
struct JoinView: PageView {
  enum State: Sendable {
    case offer(Invitations.Offer)
    case signedOut(Invitations.Offer, next: String, signupOpen: Bool)
    case alreadyMember(String)
    case unusable
  }

  var state: State
  var secret: String

  var title: String { L("workspace.join.title") }

  func content(context: PageContext) -> HTMLNode {
    switch state {
    case .unusable:
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("workspace.join.title")),
          H.p([.class("notice")], L("workspace.join.unusable")),
          H.a(Routes.home.href(), [.class("button")], text: L("workspace.join.home")),
        ])
    case .alreadyMember(let name):
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("workspace.join.title")),
          H.p([], L("workspace.join.already", ["name": name])),
          H.a(Routes.home.href(), [.class("button")], text: L("workspace.join.home")),
        ])
    case .signedOut(let offer, let next, let signupOpen):
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("workspace.join.heading", ["name": offer.workspaceName])),
          H.p([], L("workspace.join.offer", ["role": offer.role.title]) + " " + offer.role.summary),
          H.p([], L("workspace.join.sign_in_first")),
          H.p(
            [.class("form-actions")],
            [
              H.a(
                Routes.signIn.href(query: ["next": next]), [.class("button button-primary")],
                text: L("nav.sign_in")),
              signupOpen
                ? H.a(
                  Routes.signUp.href(query: ["next": next]), [.class("button")],
                  text: L("nav.create_account")) : H.empty,
            ]),
        ])
    case .offer(let offer):
      return H.div(
        [.class("auth-card")],
        [
          H.h1(L("workspace.join.heading", ["name": offer.workspaceName])),
          H.p([], L("workspace.join.offer", ["role": offer.role.title]) + " " + offer.role.summary),
          postForm(
            action: Routes.joinSubmit.href(["token": secret]), csrf: context.csrf,
            attributes: [.class("stack")],
            [H.button(L("workspace.join.button"), [.class("button button-primary")])]),
        ])
    }
  }
}
