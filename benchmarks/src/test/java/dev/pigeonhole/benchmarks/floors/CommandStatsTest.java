package dev.pigeonhole.benchmarks.floors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommandStatsTest {

    /** As Redis 7 answers INFO commandstats: CRLF lines, a header, subcommands named with a bar. */
    private static final String INFO = String.join("\r\n",
            "# Commandstats",
            "cmdstat_evalsha:calls=20000,usec=298811,usec_per_call=14.94,rejected_calls=0,failed_calls=1",
            "cmdstat_eval:calls=12,usec=2411,usec_per_call=200.92,rejected_calls=0,failed_calls=0",
            "cmdstat_fcall:calls=20000,usec=95940,usec_per_call=4.80,rejected_calls=0,failed_calls=0",
            "cmdstat_fcall_ro:calls=3,usec=9,usec_per_call=3.00,rejected_calls=0,failed_calls=0",
            "cmdstat_zadd:calls=80000,usec=90000,usec_per_call=1.12,rejected_calls=0,failed_calls=0",
            "cmdstat_function|load:calls=1,usec=53,usec_per_call=53.00,rejected_calls=0,failed_calls=0",
            "cmdstat_info:calls=7,usec=700,usec_per_call=100.00,rejected_calls=0,failed_calls=0",
            "");

    @Test
    void every_command_s_calls_and_time_are_read_by_name_subcommands_included() {
        assertThat(CommandStats.parse(INFO))
                .containsEntry("cmdstat_evalsha", new CommandStats(20_000, 298_811))
                .containsEntry("cmdstat_function|load", new CommandStats(1, 53))
                .hasSize(7);
    }

    @Test
    void script_time_sums_the_script_commands_alone_eval_evalsha_fcall_and_fcall_ro() {
        // Not the ZADDs the scripts ran (counted inside their script's time already), nor INFO itself.
        assertThat(CommandStats.scripts(INFO)).isEqualTo(new CommandStats(20_000 + 12 + 20_000 + 3,
                298_811 + 2_411 + 95_940 + 9));
    }

    @Test
    void a_redis_that_ran_no_script_yet_has_spent_nothing_on_scripts() {
        assertThat(CommandStats.scripts("# Commandstats\r\ncmdstat_ping:calls=1,usec=2,usec_per_call=2.00\r\n"))
                .isEqualTo(new CommandStats(0, 0));
    }

    @Test
    void two_readings_give_what_happened_between_them() {
        assertThat(new CommandStats(30_012, 400_000).since(new CommandStats(10_012, 100_000)))
                .isEqualTo(new CommandStats(20_000, 300_000));
    }
}
