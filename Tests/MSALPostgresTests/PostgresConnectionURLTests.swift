import Foundation
import MSAL
import MSALPostgres
import Testing

@Suite("PostgreSQL connection URLs")
struct PostgresConnectionURLTests {
    @Test("host, port, user, password, database and sslmode; postgresql:// too; defaults")
    func tcp() throws {
        let url = try PostgresConnectionURL(
            "postgres://app%40corp:p%3Ass%40w0rd@db.internal:6543/tokens?sslmode=require")
        #expect(url.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(url.username == "app@corp")
        #expect(url.database == "tokens")
        #expect(url.sslMode == .require)
        #expect(url.description == "postgres://app@corp:***@db.internal:6543/tokens?sslmode=require")

        let plain = try PostgresConnectionURL("postgresql://me@localhost/db")
        #expect(plain.endpoint == .tcp(host: "localhost", port: 5432))
        #expect(plain.sslMode == .prefer)
        #expect(plain.description == "postgres://me@localhost:5432/db?sslmode=prefer")

        let v6 = try PostgresConnectionURL("postgres://me@[::1]:5433/db?sslmode=verify-full&sslrootcert=/ca.pem")
        #expect(v6.endpoint == .tcp(host: "::1", port: 5433))
        #expect(v6.sslMode == .verifyFull)
        #expect(v6.sslRootCertificatePath == "/ca.pem")
        #expect(v6.description == "postgres://me@[::1]:5433/db?sslmode=verify-full&sslrootcert=/ca.pem")
    }

    @Test("sslrootcert=system makes verify-full the default sslmode, and is kept in the description")
    func systemRoots() throws {
        let url = try PostgresConnectionURL("postgres://me@db.example.com/db?sslrootcert=system")
        #expect(url.sslMode == .verifyFull)
        #expect(url.sslRootCertificatePath == "system")
        #expect(url.description == "postgres://me@db.example.com:5432/db?sslmode=verify-full&sslrootcert=system")
        #expect(try PostgresConnectionURL(url.description).sslMode == .verifyFull)
        let file = try PostgresConnectionURL("postgres://me@db.example.com/db?sslmode=verify-ca&sslrootcert=/ca.pem")
        #expect(file.sslMode == .verifyCA)
    }

    @Test("a Unix socket: host=/folder in the query or percent-encoded as the host, with the port in its name")
    func unixSocket() throws {
        let query = try PostgresConnectionURL("postgres://me:pw@/db?host=/var/run/postgresql")
        #expect(query.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        #expect(query.description == "postgres://me:***@/db?host=/var/run/postgresql")
        let encoded = try PostgresConnectionURL("postgresql://me@%2Ftmp%2Fpg:6000/db")
        #expect(encoded.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.6000"))
        #expect(encoded.description == "postgres://me@/db?host=/tmp/pg&port=6000")
        #expect(try PostgresConnectionURL(encoded.description).endpoint == encoded.endpoint)
        let parameters = try PostgresConnectionURL("postgres:///?host=/tmp/&port=7000&user=u&password=p&dbname=d")
        #expect(parameters.endpoint == .unixSocket(path: "/tmp/.s.PGSQL.7000"))
        #expect(parameters.username == "u")
        #expect(parameters.database == "d")
        #expect(!parameters.description.contains("=p"))
    }

    @Test("what is not valid is refused with invalidParameter, and the error never quotes the password")
    func invalid() {
        let secret = "S3cr3t-pass"
        for text in [
            "mysql://u:\(secret)@h/db", "postgres://u:\(secret)@h:99999/db", "postgres://u:\(secret)@h/db?sslmode=on",
            "postgres://u:\(secret)@h/db?sslmod=require", "postgres://:\(secret)@h/db",
            "postgres://u:\(secret)@[::1/db",
            "postgres://u:\(secret)%zz@h/db", "u:\(secret)@h/db",
        ] {
            #expect {
                try PostgresConnectionURL(text)
            } throws: { error in
                guard let error = error as? MSALError else { return false }
                return error.internalCode == .invalidParameter && !"\(error)".contains(secret)
            }
        }
    }

    @Test("the password is hidden from description, debugDescription and dump")
    func redaction() throws {
        let url = try PostgresConnectionURL("postgres://u:hunter2-secret@h/db")
        var dumped = ""
        dump(url, to: &dumped)
        for text in [
            url.description, String(reflecting: url), dumped, "\(Mirror(reflecting: url).children.map(\.value))",
        ] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }

    @Test("table names must be plain lowercase identifiers; sslrootcert must be readable")
    func storeParameters() throws {
        for name in ["msal_token_cache", "cache.tokens", "_t1"] {
            #expect(throws: Never.self) { try PostgresTokenCacheStore(url: "postgres://u@h/db", tableName: name) }
        }
        for name in ["", "Tokens", "t;drop table x", "a.b.c", "1t", "\"t\"", String(repeating: "t", count: 49)] {
            #expect(throws: MSALError.self) { try PostgresTokenCacheStore(url: "postgres://u@h/db", tableName: name) }
        }
        #expect(throws: MSALError.self) {
            try PostgresTokenCacheStore(url: "postgres://u@h/db?sslmode=require&sslrootcert=/nonexistent/ca.pem")
        }
    }
}
