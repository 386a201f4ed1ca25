import Foundation
import Locking
import Synchronization

/// All mutable emulator state: grants, sessions, consent, revocations, clock, outbox, request log
/// and scenarios. One actor, so every request sees a consistent directory.
actor EmulatorState {
    private let initialDirectory: Directory
    private let clock: EmulatorClock
    private let seed: UInt64?
    // Read on every request, changed rarely: kept under locks so reading them is not a hop onto the actor.
    private nonisolated let directory: Locked<DirectoryIndex>
    private nonisolated let generator: Locked<SeededRandom>
    private nonisolated let offset = Locked<TimeInterval>(0)

    // Everything a client or browser can make the emulator create is kept only while it can still be used
    // (``Retention``), so a long-running emulator's memory follows its live state.
    private var pending = ExpiringMap<PendingAuthorization>()
    private var codes = ExpiringMap<AuthorizationCodeGrant>()
    private var refreshTokens = RefreshTokenLedger()
    private var devices = ExpiringMap<DeviceAuthorization>()
    private var deviceCodeByUserCode = ExpiringMap<String>()
    private var sessions = ExpiringMap<BrowserSession>()
    private var userConsents: [String: Set<String>] = [:]
    private var revokedAt: [String: Date] = [:]
    private(set) var outbox = RecentLog<OutboxMessage>(capacity: 10_000)
    /// The request log, written on every request: behind a lock rather than the actor, so logging
    /// costs no hop onto the actor.
    private nonisolated let served = Locked(RecentLog<ServedRequest>(capacity: 10_000))
    /// The last 500 requests with their answers, secrets masked, for the dashboard's request log.
    nonisolated let exchanges = ExchangeRecorder(capacity: 500)
    private var scenarios: [Scenario] = []
    private var nextTokenClaims = ClaimsForNextTokens()
    /// Group memberships given to tokens on demand, by object id (lowercased), for Graph's `getMemberObjects`.
    private var groupMemberships: [String: [String]] = [:]
    private var adminConsent: [String: Set<String>] = [:]
    private var nativeFlows = ExpiringMap<NativeFlow>()
    private var assertions = AssertionLedger()
    /// How many scenarios are armed, readable without a hop onto the actor (the common case is none).
    nonisolated let armedScenarios = Atomic<Int>(0)
    /// Wrong-password counts and locked accounts.
    nonisolated let lockout = PasswordLockout()

    /// Called with the directory after each change to it (the state file's writer).
    private let onChange: (@Sendable (Directory) -> Void)?

    init(
        directory: Directory, clock: EmulatorClock, seed: UInt64?, onChange: (@Sendable (Directory) -> Void)? = nil
    ) {
        initialDirectory = directory
        self.clock = clock
        self.seed = seed
        self.onChange = onChange
        self.directory = Locked(DirectoryIndex(directory))
        generator = Locked(seed.map(SeededRandom.init(seed:)) ?? SeededRandom())
    }

    nonisolated var index: DirectoryIndex { directory.withLock { $0 } }

    nonisolated var now: Date { clock.now(offset: clockOffset) }

    nonisolated var clockOffset: TimeInterval { offset.withLock { $0 } }

    /// Forgets everything but the directory given at start (`POST /_emulator/reset`).
    func reset() {
        directory.withLock { $0 = DirectoryIndex(initialDirectory) }
        onChange?(initialDirectory)
        lockout.reset()
        generator.withLock { $0 = seed.map(SeededRandom.init(seed:)) ?? SeededRandom() }
        offset.withLock { $0 = 0 }
        pending = ExpiringMap()
        codes = ExpiringMap()
        refreshTokens = RefreshTokenLedger()
        devices = ExpiringMap()
        deviceCodeByUserCode = ExpiringMap()
        sessions = ExpiringMap()
        userConsents = [:]
        revokedAt = [:]
        outbox = RecentLog(capacity: 10_000)
        served.withLock { $0 = RecentLog(capacity: 10_000) }
        exchanges.clear()
        scenarios = []
        nextTokenClaims = ClaimsForNextTokens()
        groupMemberships = [:]
        adminConsent = [:]
        nativeFlows = ExpiringMap()
        assertions = AssertionLedger()
        armedScenarios.store(0, ordering: .relaxed)
    }

    nonisolated func setClockOffset(_ seconds: TimeInterval) { offset.withLock { $0 = seconds } }

    /// Checks a password for `user` under smart lockout.
    ///
    /// - Throws: `invalid_grant` AADSTS50057 for a disabled account, AADSTS50126 for a wrong password, AADSTS50053
    ///   while the account is locked.
    nonisolated func checkPassword(_ given: String?, of user: User) throws(EntraError) {
        guard user.accountEnabled != false else { throw .accountDisabled }
        let matches = SecretComparison.matches(given, user.password)
        switch lockout.attempt(userID: user.id, matches: matches, now: now) {
        case .accepted: return
        case .wrong: throw .badCredentials
        case .locked: throw .accountLocked
        }
    }

    // MARK: Randomness

    nonisolated func guid() -> String { generator.withLock { $0.guid() } }

    nonisolated func opaque(_ bytes: Int) -> String { generator.withLock { $0.opaque(bytes) } }

    nonisolated func randomInt(in range: ClosedRange<Int>) -> Int {
        generator.withLock { Int.random(in: range, using: &$0) }
    }

    private nonisolated func randomString(_ length: Int, from alphabet: String) -> String {
        generator.withLock { $0.string(length, from: alphabet) }
    }

    // MARK: Consent

    private func consentKey(user: String, client: String) -> String { "\(user.lowercased())|\(client.lowercased())" }

    /// Scope keys (``ScopeSet/Grant/key``) consented for this user and client, by the user or an admin.
    func consentedScopes(userID: String, client: Application) -> Set<String> {
        let keys = userConsents[consentKey(user: userID, client: client.clientId)] ?? []
        return keys.union(adminConsentKeys(client))
    }

    /// The scope keys an administrator consented to for `client`, parsed once per directory.
    private func adminConsentKeys(_ client: Application) -> Set<String> {
        if let known = adminConsent[client.clientId.lowercased()] { return known }
        var keys = Set<String>()
        for scope in client.adminConsentedScopes {
            if let set = try? ScopeSet(parsing: scope, index: index) { keys.formUnion(set.allGrants().map(\.key)) }
        }
        adminConsent[client.clientId.lowercased()] = keys
        return keys
    }

    func recordConsent(userID: String, clientID: String, grants: [ScopeSet.Grant]) {
        userConsents[consentKey(user: userID, client: clientID), default: []].formUnion(grants.map(\.key))
    }

    // MARK: Client assertions

    /// Remembers a client assertion's `jti` until `expiresAt`; false when a different assertion used it.
    func recordAssertion(issuer: String, jti: String, digest: String, expiresAt: Date) -> Bool {
        assertions.record(key: "\(issuer)|\(jti)", digest: digest, expiresAt: expiresAt, now: now)
    }

    // MARK: Authorization requests and codes

    func storePending(_ request: PendingAuthorization) -> String {
        sweepIfDue()
        let id = opaque(18)
        pending.insert(request, for: id, keepUntil: now.addingTimeInterval(Retention.authorizationRequest))
        return id
    }

    func pendingAuthorization(_ id: String) -> PendingAuthorization? { pending.value(id, now: now) }

    func finishPending(_ id: String) { pending.remove(id) }

    func updateProgress(_ id: String, _ change: @Sendable (inout InteractionProgress) -> Void) -> PendingAuthorization?
    {
        guard pending.update(id, { change(&$0.progress) }) else { return nil }
        return pending[id]
    }

    func issueCode(_ grant: AuthorizationCodeGrant) -> String {
        sweepIfDue()
        let code = "1.A" + opaque(96)
        codes.insert(grant, for: code, keepUntil: grant.expiresAt.addingTimeInterval(Retention.afterExpiry))
        return code
    }

    /// Looks a code up and marks it redeemed; a second call answers `.alreadyRedeemed`.
    func redeemCode(_ code: String) -> Result<AuthorizationCodeGrant, EntraError> {
        guard var grant = codes[code] else { return .failure(.malformedGrant) }
        guard !grant.redeemed else { return .failure(.codeRedeemed) }
        grant.redeemed = true
        codes.update(code) { $0.redeemed = true }
        guard grant.expiresAt > now else { return .failure(.grantExpired) }
        return .success(grant)
    }

    // MARK: Refresh tokens

    func issueRefreshToken(_ grant: RefreshTokenGrant) -> String {
        sweepIfDue()
        let token = "1.A" + opaque(180)
        refreshTokens.insert(grant, token: token)
        return token
    }

    /// The grant behind a refresh token, if it exists and was not revoked.
    func refreshGrant(_ token: String) -> Result<RefreshTokenGrant, EntraError> {
        guard let grant = refreshTokens[token] else { return .failure(.malformedGrant) }
        if let revoked = revokedAt[grant.userID.lowercased()], grant.issuedAt < revoked {
            return .failure(.revoked(issued: grant.issuedAt, validFrom: revoked))
        }
        guard now.timeIntervalSince(grant.issuedAt) < RefreshTokenLedger.lifetime else {
            return .failure(.grantExpired)
        }
        refreshTokens.touch(token, of: grant)
        return .success(grant)
    }

    // MARK: Revocation

    /// Revokes a user's refresh tokens and sign-in sessions (as Graph `revokeSignInSessions`).
    func revoke(userID: String) -> Date {
        let at = now
        revokedAt[userID.lowercased()] = at
        sessions.updateEach { $0.userIDs.removeAll { $0.lowercased() == userID.lowercased() } }
        return at
    }

    func revocationTime(userID: String) -> Date? { revokedAt[userID.lowercased()] }

    /// The user's browser sessions and live refresh tokens (not revoked, not expired), for the dashboard.
    func signInState(userID: String) -> (
        sessions: [BrowserSession], refreshTokens: [(token: String, grant: RefreshTokenGrant)]
    ) {
        let id = userID.lowercased()
        let now = now
        let revoked = revokedAt[id]
        let live = sessions.values(now: now).filter { $0.userIDs.contains { $0.lowercased() == id } }
        let tokens = refreshTokens.tokens(userID: id).filter { entry in
            revoked.map { entry.grant.issuedAt >= $0 } ?? true
                && now.timeIntervalSince(entry.grant.issuedAt) < RefreshTokenLedger.lifetime
        }
        return (live, tokens)
    }

    // MARK: Sessions

    func session(_ id: String?) -> BrowserSession? { id.flatMap { sessions.value($0, now: now) } }

    /// Adds a signed-in user to the browser's session, creating one if needed; returns its id.
    func signIn(userID: String, session id: String?) -> String {
        sweepIfDue()
        let sessionID = id.flatMap { sessions.value($0, now: now) != nil ? $0 : nil } ?? guid()
        var session = sessions.value(sessionID, now: now) ?? BrowserSession(id: sessionID, state: guid(), userIDs: [])
        session.userIDs.removeAll { $0 == userID }
        session.userIDs.insert(userID, at: 0)
        sessions.insert(session, for: sessionID, keepUntil: now.addingTimeInterval(Retention.session))
        return sessionID
    }

    func endSession(_ id: String?) {
        if let id { sessions.remove(id) }
    }

    // MARK: Device codes

    func startDeviceAuthorization(
        client: Application, selectorSegment: String, scopes: ScopeSet, rawScope: String,
        claims: String?, lifetime: TimeInterval
    ) -> DeviceAuthorization {
        sweepIfDue()
        let userCode = randomString(9, from: "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let device = DeviceAuthorization(
            deviceCode: "DAQABAAEAAA" + opaque(120), userCode: userCode, client: client,
            selectorSegment: selectorSegment, scopes: scopes, rawScope: rawScope, claims: claims,
            expiresAt: now.addingTimeInterval(lifetime))
        let keepUntil = device.expiresAt.addingTimeInterval(Retention.afterExpiry)
        devices.insert(device, for: device.deviceCode, keepUntil: keepUntil)
        deviceCodeByUserCode.insert(device.deviceCode, for: userCode, keepUntil: keepUntil)
        return device
    }

    func deviceAuthorization(userCode: String) -> DeviceAuthorization? {
        deviceCodeByUserCode[userCode.uppercased().filter { !$0.isWhitespace && $0 != "-" }].flatMap { devices[$0] }
    }

    func deviceAuthorization(deviceCode: String) -> DeviceAuthorization? { devices[deviceCode] }

    func setDeviceStatus(deviceCode: String, _ status: DeviceAuthorization.Status) {
        devices.update(deviceCode) { $0.status = status }
    }

    /// Reads a device authorization and, when it is approved, marks it redeemed in the same step,
    /// so two concurrent polls cannot both get tokens. Returns the status before the change.
    func pollDevice(deviceCode: String) -> DeviceAuthorization? {
        guard let device = devices[deviceCode] else { return nil }
        if case .approved = device.status, device.expiresAt > now {
            devices.update(deviceCode) { $0.status = .redeemed }
        }
        return device
    }

    // MARK: Memory

    /// Sweeps every store whose sweep is due, whichever store the caller is about to add to: a store that
    /// stopped growing still loses its expired items.
    private func sweepIfDue() {
        let now = now
        pending.sweepIfDue(now: now)
        codes.sweepIfDue(now: now)
        refreshTokens.sweepIfDue(now: now)
        devices.sweepIfDue(now: now)
        deviceCodeByUserCode.sweepIfDue(now: now)
        sessions.sweepIfDue(now: now)
        nativeFlows.sweepIfDue(now: now)
    }

    /// How many of each kind of item the emulator holds now (`GET /_emulator/stats`).
    func liveCounts() -> [(String, Int)] {
        [
            ("authorizationRequests", pending.count), ("authorizationCodes", codes.count),
            ("refreshTokens", refreshTokens.count), ("deviceCodes", devices.count), ("sessions", sessions.count),
            ("continuationTokens", nativeFlows.count), ("outbox", outbox.count),
            ("requestLog", served.withLock { $0.count }),
        ]
    }

    // MARK: Outbox, request log, scenarios

    /// Keeps the most recent 10,000 messages.
    func send(_ message: OutboxMessage) {
        outbox.append(message)
    }

    /// The most recent 10,000 requests, oldest first.
    nonisolated func servedRequests() -> [ServedRequest] { served.withLock { Array($0) } }

    /// Keeps the most recent 10,000 requests, so a long run under load does not grow without bound.
    nonisolated func log(
        method: String, host: String?, path: String, grantType: String?, clientID: String?, correlationID: String?,
        status: Int
    ) {
        let at = now
        served.withLock {
            $0.append(
                ServedRequest(
                    method: method, host: host, path: path, grantType: grantType, clientID: clientID,
                    correlationID: correlationID, status: status, at: at))
        }
    }

    /// Queues `claims` for the next `count` access tokens of the user `userID` (an object id) or of `clientID`.
    func queueClaims(userID: String?, clientID: String?, claims: [(String, JSONValue)], count: Int) {
        nextTokenClaims.add(userID: userID, clientID: clientID, claims: claims, count: count)
    }

    /// The claims queued for an access token issued to `clientID` (for the user `userID`, when it is a user's).
    func takeQueuedClaims(userID: String?, clientID: String) -> [(String, JSONValue)] {
        guard nextTokenClaims.count > 0 else { return [] }
        return nextTokenClaims.take(userID: userID, clientID: clientID)
    }

    /// Records the groups a test gave the directory object `objectID`, for Graph's `getMemberObjects`.
    func setGroups(_ groups: [String], objectID: String) {
        groupMemberships[objectID.lowercased()] = groups
    }

    /// The groups a test gave `objectID` (none unless one did).
    func groups(objectID: String) -> [String] {
        groupMemberships[objectID.lowercased()] ?? []
    }

    func addScenario(_ scenario: Scenario) {
        scenarios.append(scenario)
        armedScenarios.store(scenarios.count, ordering: .relaxed)
    }

    func clearScenarios() {
        scenarios = []
        armedScenarios.store(0, ordering: .relaxed)
    }

    /// Consumes one use of the first scenario for `route` whose fault satisfies `matching`.
    func takeScenario(for route: Scenario.Route, where matching: (Scenario) -> Bool) -> Scenario? {
        guard let i = scenarios.firstIndex(where: { ($0.route == route || $0.route == .any) && matching($0) }) else {
            return nil
        }
        let scenario = scenarios[i]
        scenarios[i].count -= 1
        if scenarios[i].count <= 0 { scenarios.remove(at: i) }
        armedScenarios.store(scenarios.count, ordering: .relaxed)
        return scenario
    }

    func activeScenarios() -> [Scenario] { scenarios }

    // MARK: Native authentication

    /// Stores a flow under a new continuation token.
    func issueContinuation(_ flow: NativeFlow) -> String {
        sweepIfDue()
        let token = "uY29udGludWF0aW9u" + opaque(96)
        nativeFlows.insert(flow, for: token, keepUntil: flow.expiresAt)
        return token
    }

    /// Removes and returns the flow of a continuation token: each token is good for one step.
    func takeContinuation(_ token: String) -> NativeFlow? { nativeFlows.remove(token) }

    /// Puts a flow back under its token after an answer the user can correct (a wrong code or password).
    func restoreContinuation(_ token: String, _ flow: NativeFlow) {
        nativeFlows.insert(flow, for: token, keepUntil: flow.expiresAt)
    }

    // MARK: Directory

    /// Adds a user (sign-up on the External ID tenant) unless one with the same name exists.
    ///
    /// - Returns: false when the name is taken (two sign-ups for one email raced).
    @discardableResult
    func addUser(_ user: User) -> Bool {
        let added = directory.withLock { index in
            guard index.user(named: user.userPrincipalName) == nil else { return false }
            var updated = index.directory
            updated.users.append(user)
            index = DirectoryIndex(updated)
            return true
        }
        adminConsent = [:]
        if added { onChange?(index.directory) }
        return added
    }

    /// Changes a user in place (a password reset).
    func updateUser(id: String, _ change: @Sendable (inout User) -> Void) {
        directory.withLock { index in
            var updated = index.directory
            guard let i = updated.users.firstIndex(where: { $0.id.lowercased() == id.lowercased() }) else { return }
            change(&updated.users[i])
            index = DirectoryIndex(updated)
        }
        onChange?(index.directory)
    }

    /// Serves `directory` from now on (`POST /_emulator/import`), as if the emulator had started with it: its users'
    /// sessions, grants and consent start afresh.
    func importDirectory(_ imported: Directory) {
        directory.withLock { $0 = DirectoryIndex(imported) }
        sessions = ExpiringMap()
        refreshTokens = RefreshTokenLedger()
        userConsents = [:]
        adminConsent = [:]
        revokedAt = [:]
        onChange?(imported)
    }
}
