package dev.pigeonhole.adapter.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import com.zaxxer.hikari.pool.HikariPool;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * One PostgreSQL database as the adapter uses it: a HikariCP pool whose connections work in
 * {@link PostgresSettings#schema()}, the schema brought up to date by Flyway when the store
 * starts (unless the settings say a deployment migrates on its own), and the {@link Transactions}
 * every port runs its work through. Every port of one server shares one store; closing it closes
 * the pool.
 */
public final class PostgresStore implements AutoCloseable {

    /** The migrations, {@code V1__store.sql} onwards, as Flyway finds them on the class path. */
    static final String MIGRATIONS = "classpath:db/pigeonhole";

    private final PostgresSettings settings;
    private final HikariDataSource pool;
    private final Transactions transactions;
    private final Notices notices;

    /**
     * Opens the pool and, unless told not to, migrates the schema.
     *
     * @throws StoreUnavailableException if the database does not answer, or refuses the settings
     * @throws IllegalArgumentException  if the settings name a CA file that cannot be read as one
     */
    public PostgresStore(PostgresSettings settings) {
        this(settings, null);
    }

    /**
     * As above, with the pool's own meters ({@code hikaricp_connections*}: active, idle, pending,
     * timeouts, acquire and usage times) recorded into {@code metrics}. The store counts nothing
     * itself; HikariCP does.
     */
    public PostgresStore(PostgresSettings settings, MeterRegistry metrics) {
        this.settings = Objects.requireNonNull(settings, "settings");
        settings.ssl().checkRootCert();
        this.pool = open(settings, metrics);
        try {
            if (settings.migrate()) {
                migrate();
            }
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        this.transactions = new Transactions(pool, settings.endpoint());
        this.notices = new Notices(new ChannelNames(settings.schema()));
    }

    public PostgresSettings settings() {
        return settings;
    }

    Transactions transactions() {
        return transactions;
    }

    /** How every port announces live events: inside its own transaction, delivered on commit. */
    Notices notices() {
        return notices;
    }

    /**
     * Asks the database whether it answers, through the pool, for a health check.
     *
     * @throws StoreUnavailableException if it does not, within the timeouts
     */
    public void ping() {
        transactions.autocommit("a ping", connection -> {
            try (var statement = connection.createStatement()) {
                statement.execute("select 1");
                return null;
            }
        });
    }

    /**
     * JDBC properties for a connection outside the pool (the listening connection of live
     * events): the same user, schema and timeouts, under {@code applicationName}.
     */
    Properties connectionProperties(String applicationName) {
        Properties properties = new Properties();
        properties.putAll(driverProperties(settings));
        properties.setProperty("user", settings.user());
        properties.setProperty("password", settings.password());
        properties.setProperty("ApplicationName", applicationName);
        return properties;
    }

    private void migrate() {
        try {
            Flyway.configure()
                    .dataSource(pool)
                    .schemas(settings.schema())
                    .defaultSchema(settings.schema())
                    .locations(MIGRATIONS)
                    .load()
                    .migrate();
        } catch (FlywayException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw Transactions.failure(settings.endpoint(), "the migrations", sql);
            }
            throw new IllegalStateException("PostgreSQL at " + settings.endpoint() + " could not be migrated: "
                    + e.getMessage(), e);
        }
    }

    private static HikariDataSource open(PostgresSettings settings, MeterRegistry metrics) {
        HikariConfig config = new HikariConfig();
        if (metrics != null) {
            config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        }
        config.setPoolName("pigeonhole-postgres");
        config.setJdbcUrl(settings.url());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        // Connections open as callers need them: a quiet server holds one, not the whole pool.
        config.setMinimumIdle(1);
        config.setConnectionTimeout(settings.connectTimeout().toMillis());
        config.setValidationTimeout(Math.min(settings.connectTimeout().toMillis(), 5_000));
        config.setDataSourceProperties(driverProperties(settings));
        try {
            return new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw Transactions.failure(settings.endpoint(), "the first connection", sql);
            }
            throw new StoreUnavailableException("PostgreSQL at " + settings.endpoint()
                    + " could not serve the first connection: " + e.getMessage(), e);
        }
    }

    /** What every connection is opened with besides the URL, the user and the password. */
    static Properties driverProperties(PostgresSettings settings) {
        Properties properties = new Properties();
        properties.setProperty("currentSchema", settings.schema());
        properties.setProperty("ApplicationName", "pigeonhole");
        // The server cancels a statement past its timeout; the socket timeout, a little longer,
        // catches a server that cannot even say so (a network gone quiet).
        properties.setProperty("options", "-c statement_timeout=" + settings.statementTimeout().toMillis());
        properties.setProperty("connectTimeout", Long.toString(seconds(settings.connectTimeout())));
        properties.setProperty("socketTimeout", Long.toString(seconds(settings.statementTimeout()) + 2));
        properties.setProperty("tcpKeepAlive", "true");
        settings.ssl().addTo(properties);
        return properties;
    }

    private static long seconds(java.time.Duration duration) {
        return Math.max(1, (duration.toMillis() + 999) / 1_000);
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "PostgresStore[" + settings + "]";
    }
}
