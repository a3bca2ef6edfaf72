"""Unit tests of the benchmark's pure parts (no load, no network, no websockets):

    python3 -m unittest bench/test_run.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peer  # noqa: E402
import run  # noqa: E402
import scale  # noqa: E402


class ProcParsingTests(unittest.TestCase):
    STAT = ("4242 (vload serve (x) y) S 1 4242 4242 0 -1 4194560 1200 0 0 0 "
            "731 269 0 0 20 0 3 0 123456 250000000 5120 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0")

    def test_utime_plus_stime_counts_fields_from_the_last_parenthesis(self):
        self.assertEqual(run.parse_proc_stat(self.STAT), 731 + 269)

    def test_vm_rss(self):
        status = "Name:\tvload\nVmPeak:\t  900000 kB\nVmRSS:\t   51234 kB\nRssAnon:\t 40000 kB\n"
        self.assertEqual(run.parse_vm_rss_kb(status), 51234)
        self.assertIsNone(run.parse_vm_rss_kb("Name:\tzombie\nState:\tZ (zombie)\n"))

    def test_cpu_cores_is_cpu_seconds_per_second(self):
        self.assertAlmostEqual(run.cpu_cores(1000, 3500, 25.0, 100), 1.0)
        self.assertAlmostEqual(run.cpu_cores(0, 50, 10.0, 100), 0.05)
        self.assertIsNone(run.cpu_cores(0, 50, 0.0, 100))

    def test_rss_per_session_subtracts_the_baseline(self):
        self.assertAlmostEqual(run.rss_per_session_kb(20_000 + 64 * 500, 20_000, 500), 64.0)
        self.assertIsNone(run.rss_per_session_kb(20_000, 20_000, 1))
        self.assertIsNone(run.rss_per_session_kb(None, 20_000, 100))
        self.assertIsNone(run.rss_per_session_kb(30_000, None, 100))

    def test_speech_end_from_vload_validate(self):
        output = ("bench-openai-realtime.yaml: OK · scenario bench-openai-realtime · 5 steps\n"
                  "  hello.wav: 4.20 s, speech 0.32–3.59 s, 210 frames of 20 ms\n")
        self.assertAlmostEqual(run.parse_speech_end_ms(output), 3590.0)
        self.assertIsNone(run.parse_speech_end_ms("error: no such file"))


class PercentileTests(unittest.TestCase):
    def test_nearest_rank(self):
        values = list(range(1, 101))  # 1 … 100
        self.assertEqual(peer.percentile(values, 50), 50)
        self.assertEqual(peer.percentile(values, 99), 99)
        self.assertEqual(peer.percentile(values, 100), 100)
        self.assertEqual(peer.percentile([7.0], 99), 7.0)
        self.assertEqual(peer.percentile([1, 2, 3, 4], 50), 2)
        self.assertIsNone(peer.percentile([], 50))

    def test_latency_summary(self):
        summary = peer.latency_summary([705.0, 701.0, 703.0])
        self.assertEqual(summary, {"count": 3, "p50": 703.0, "p99": 705.0})
        self.assertEqual(peer.latency_summary([]), {"count": 0, "p50": None, "p99": None})

    def test_histogram_matches_exact_percentiles_within_one_bucket(self):
        histogram = peer.LagHistogram(resolution_ms=0.01)
        lags = [0.005 * i for i in range(1, 1001)]  # 0.005 … 5.0 ms
        for lag in lags:
            histogram.record(lag)
        for percent in (50, 90, 99):
            exact = peer.percentile(sorted(lags), percent)
            self.assertGreaterEqual(histogram.percentile(percent), exact - 1e-9)
            self.assertLessEqual(histogram.percentile(percent), exact + 0.01 + 1e-9)
        self.assertEqual(histogram.count, 1000)
        self.assertAlmostEqual(histogram.max_ms, 5.0)

    def test_histogram_clamps_negative_and_huge_lags(self):
        histogram = peer.LagHistogram(resolution_ms=0.01, limit_ms=10.0)
        histogram.record(-0.3)
        histogram.record(2_000.0)
        self.assertEqual(histogram.percentile(50), 0.01)
        self.assertEqual(histogram.percentile(100), 2_000.0)  # the overflow bucket reports the max
        self.assertEqual(histogram.summary()["max"], 2_000.0)
        self.assertEqual(peer.LagHistogram().summary(), {"count": 0, "p50": None, "p90": None, "p99": None, "max": None})


class AudioTests(unittest.TestCase):
    def test_speech_bounds_of_a_tone_between_silences(self):
        rate = 16_000
        tone = [int(8_000 * ((i // 8) % 2 * 2 - 1)) for i in range(rate // 2)]  # 0.5 s square wave
        samples = [0] * (rate // 4) + tone + [0] * (rate // 4)
        self.assertEqual(peer.speech_bounds(samples, rate), (0.25, 0.75))

    def test_a_click_is_not_speech(self):
        rate = 16_000
        samples = [0] * 1_600 + [10_000] * 160 + [0] * 1_600  # one 10 ms window
        self.assertIsNone(peer.speech_bounds(samples, rate))

    def test_the_repository_clip_ends_where_vload_says(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios", "audio", "hello.wav")
        samples, rate = peer.read_wav_mono16(path)
        self.assertEqual(peer.speech_bounds(samples, rate), (0.32, 3.59))  # `vload validate`: speech 0.32–3.59 s

    def test_resample_and_frames(self):
        self.assertEqual(len(peer.resample_linear([0] * 16_000, 16_000, 24_000)), 24_000)
        self.assertEqual(peer.resample_linear([0, 300], 16_000, 24_000), [0, 200, 300])
        cut = peer.frames(b"\x01" * 1_000, 640)
        self.assertEqual([len(f) for f in cut], [640, 640])
        self.assertEqual(cut[1], b"\x01" * 360 + bytes(280))


def row(tool, sessions, p99, dialect="openai-realtime", **extra):
    base = {"tool": tool, "dialect": dialect, "sessions": sessions, "send_lag_p50_ms": 0.1, "send_lag_p99_ms": p99,
            "tester_cpu_cores": 0.25, "simulator_cpu_cores": 0.5, "rss_per_session_kb": None,
            "first_audio_error_p50_ms": 0.94, "first_audio_error_p99_ms": -1.25, "verdict": "healthy"}
    base.update(extra)
    return base


class TableTests(unittest.TestCase):
    def test_table_rows_and_missing_figures(self):
        table = run.format_table([
            row("vload", 1000, 1.234, rss_per_session_kb=41.26, idle_late_p99_ms=0.081, simulator_late_p99_ms=0.314,
                receive_lag_p99_ms=0.456),
            row("peer", 50, None, tester_cpu_cores=None, first_audio_error_p50_ms=None, verdict="failed | x"),
        ])
        lines = table.splitlines()
        self.assertEqual(len(lines), 4)
        self.assertEqual(lines[0].count("|"), 15)
        self.assertEqual(lines[1], "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        self.assertEqual(lines[2], "| vload | openai-realtime | 1000 | 0.10 | 1.23 | 0.46 | 0.25 | 0.50 | 41.3 | +0.9 | -1.2 | 0.31 | 0.08 | healthy |")
        self.assertEqual(lines[3], "| peer | openai-realtime | 50 | 0.10 | — | — | — | 0.50 | — | — | -1.2 | — | — | failed / x |")

    def test_reply_timing_from_what_serve_prints_when_it_stops(self):
        output = ("stopped: 300 sessions, 2400 user turns, 2400 replies, 0 interruptions\n"
                  "reply timing: 2400 replies started late by p50 0.052 ms, p99 1.311 ms, max 4.007 ms "
                  "(after the end of speech plus the drawn latency)\n")
        self.assertEqual(run.parse_reply_timing(output),
                         {"simulator_replies": 2400, "simulator_late_p50_ms": 0.052,
                          "simulator_late_p99_ms": 1.311, "simulator_late_max_ms": 4.007})
        self.assertIsNone(run.parse_reply_timing("stopped: 0 sessions")["simulator_late_p99_ms"])

    def test_idle_lateness(self):
        lates = [0.05] * 985 + [0.4] * 11 + [6.0, 7.5, 12.0, 30.0]  # rank 990 of 1,000 is a 0.4
        self.assertEqual(run.idle_lateness(lates),
                         {"idle_late_p99_ms": 0.4, "idle_late_max_ms": 30.0, "idle_late_over_5ms": 4})
        self.assertEqual(run.idle_lateness([]),
                         {"idle_late_p99_ms": None, "idle_late_max_ms": None, "idle_late_over_5ms": 0})
        self.assertEqual(run.percentile(sorted([3.0, 1.0, 2.0]), 50), 2.0)

    def test_summary_line_ratio(self):
        rows = [row("vload", 1, 0.1), row("vload", 1000, 1.0), row("vload", 2000, 4.0), row("vload", 2500, 9.0),
                row("peer", 1, 0.5), row("peer", 50, 2.0), row("peer", 100, 7.0)]
        self.assertEqual(run.summary_line(rows, "openai-realtime", 5.0),
                         "openai-realtime: largest N with send-lag p99 ≤ 5 ms: vload 2000, peer 50; vload/peer = 40.0×")

    def test_summary_line_lower_bounds(self):
        rows = [row("vload", 500, 1.0), row("vload", 1000, 2.0), row("peer", 50, 2.0), row("peer", 100, 8.0)]
        self.assertEqual(run.summary_line(rows, "openai-realtime", 5.0),
                         "openai-realtime: largest N with send-lag p99 ≤ 5 ms: vload ≥ 1000, peer 50; vload/peer = ≥ 20.0×")
        rows = [row("vload", 500, 9.0), row("peer", 50, 2.0)]
        self.assertEqual(run.summary_line(rows, "openai-realtime", 5.0),
                         "openai-realtime: largest N with send-lag p99 ≤ 5 ms: vload none, peer ≥ 50; vload/peer = n/a")

    def test_vload_stops_at_the_first_invalid_step_beyond_the_comparison_bound(self):
        def row(invalid, p99):
            return {"invalid": invalid, "send_lag_p99_ms": p99}
        self.assertFalse(run.should_stop_vload([row(False, 1.0)], 5.0))
        self.assertFalse(run.should_stop_vload([row(False, 1.0), row(True, 2.4)], 5.0))
        self.assertFalse(run.should_stop_vload([row(False, 6.0)], 5.0))
        self.assertTrue(run.should_stop_vload([row(True, 2.4), row(True, 7.5)], 5.0))
        self.assertTrue(run.should_stop_vload([row(True, None)], 5.0))

    def test_verdicts(self):
        invalid = {"generator": {"healthy": False, "problems": ["send-lag p99 12.0 ms above one frame"]}}
        self.assertEqual(run.vload_verdict(3, invalid), ("invalid (exit 3): send-lag p99 12.0 ms above one frame", True))
        self.assertEqual(run.vload_verdict(0, {"generator": {"healthy": True, "problems": []}}), ("healthy", False))
        self.assertEqual(run.vload_verdict(None, None), ("failed (exit None, no report)", True))
        self.assertEqual(run.peer_verdict(0, {"send_lag_ms": {"p99": 6.5}}, 5.0), ("send-lag p99 > 5 ms", True))
        self.assertEqual(run.peer_verdict(0, {"send_lag_ms": {"p99": 4.5}}, 5.0), ("ok", False))
        self.assertEqual(run.with_errors("ok", 3), "ok, 3 errors")


class RatioTests(unittest.TestCase):
    def test_highest_passing_and_whether_it_is_a_lower_bound(self):
        rows = [{"sessions": 100, "ok": True}, {"sessions": 200, "ok": False}, {"sessions": 400, "ok": True},
                {"sessions": 800, "ok": False}]
        self.assertEqual(run.highest_passing(rows, lambda r: r["ok"]), (400, False))
        self.assertEqual(run.highest_passing(rows[:1], lambda r: r["ok"]), (100, True))
        self.assertEqual(run.highest_passing(rows[1:2], lambda r: r["ok"]), (None, False))

    def test_bounded_ratio(self):
        self.assertEqual(run.bounded_ratio(800, False, 200, False), "4.0×")
        self.assertEqual(run.bounded_ratio(800, True, 200, False), "≥ 4.0×")
        self.assertEqual(run.bounded_ratio(800, False, 200, True), "≤ 4.0×")
        self.assertEqual(run.bounded_ratio(800, True, 200, True), "n/a")
        self.assertEqual(run.bounded_ratio(None, False, 200, False), "n/a")
        self.assertEqual(run.bounded_ratio(300, False, 0, False), "n/a")
        self.assertEqual(run.bounded_ratio(300, False, 400, False, 2, ""), "0.75")


def scale_row(threads, series, sessions, healthy, **extra):
    return {"threads": threads, "series": series, "per_thread": sessions // threads, "sessions": sessions,
            "healthy": healthy, "verdict": "healthy" if healthy else "invalid (exit 3)", **extra}


class ScaleTests(unittest.TestCase):
    def test_thread_counts_reach_half_the_cpus(self):
        self.assertEqual(scale.thread_counts(2), [1])
        self.assertEqual(scale.thread_counts(3), [1])
        self.assertEqual(scale.thread_counts(16), [1, 2, 4, 8])
        self.assertEqual(scale.thread_counts(12), [1, 2, 4, 6])
        self.assertEqual(scale.thread_counts(1), [])

    def test_core_plan_puts_the_simulator_on_the_other_half(self):
        cpus = list(range(16))
        self.assertEqual(scale.core_plan(cpus, 4), ([0, 1, 2, 3], list(range(8, 16))))
        self.assertEqual(scale.core_plan([0, 1], 1), ([0], [1]))
        self.assertEqual(scale.core_plan([2, 3, 5], 1), ([2], [3, 5]))
        with self.assertRaises(ValueError):
            scale.core_plan(cpus, 9)

    def test_cpu_list(self):
        self.assertEqual(scale.cpu_list([3, 0, 1, 2, 5, 7, 8]), "0-3,5,7-8")
        self.assertEqual(scale.cpu_list([1]), "1")

    def test_segment_shares_follow_client_k_mod_n(self):
        self.assertEqual(scale.segment_shares(400, 4), [100, 100, 100, 100])
        self.assertEqual(scale.segment_shares(50, 4), [13, 13, 12, 12])
        self.assertEqual(sum(scale.segment_shares(1001, 8)), 1001)

    def test_cpu_per_frame(self):
        self.assertAlmostEqual(scale.cpu_us_per_frame(3.0, 100_000), 30.0)
        self.assertIsNone(scale.cpu_us_per_frame(None, 100))
        self.assertIsNone(scale.cpu_us_per_frame(1.0, 0))

    def test_a_vload_process_is_healthy_only_with_exit_0_a_healthy_generator_and_no_errors(self):
        healthy = {"generator": {"healthy": True, "problems": []}, "errors": {"total": 0}}
        self.assertEqual(scale.vload_health(0, healthy), ("healthy", True))
        self.assertEqual(scale.vload_health(1, healthy), ("exit 1", False))
        self.assertEqual(scale.vload_health(0, {**healthy, "errors": {"total": 4}}), ("4 session errors", False))
        invalid = {"generator": {"healthy": False, "problems": ["send_lag_ms p99 3.1 ms exceeds the 2 ms bound"]},
                   "errors": {"total": 2}}
        self.assertEqual(scale.vload_health(3, invalid),
                         ("invalid (exit 3): send_lag_ms p99 3.1 ms exceeds the 2 ms bound, 2 errors", False))
        self.assertEqual(scale.vload_health(None, None), ("failed (exit None, no report)", False))

    def test_processes_are_healthy_only_when_every_one_is(self):
        self.assertEqual(scale.combined_health([("healthy", True)] * 4), ("healthy", True))
        self.assertEqual(scale.combined_health([("x", False)]), ("x", False))
        self.assertEqual(scale.combined_health([("healthy", True), ("invalid (exit 3)", False), ("healthy", True)]),
                         ("segment 2/3: invalid (exit 3)", False))

    def test_vload_figures_sum_cpu_and_frames_and_keep_the_worst_lag(self):
        def report(cpu, frames, send, receive, errors=0):
            return {"generator": {"cpu_seconds": cpu, "frames_sent": frames, "send_lag_ms": {"p99": send},
                                  "receive_lag_ms": {"p99": receive}}, "errors": {"total": errors}}
        figures = scale.vload_figures([report(3.0, 100_000, 0.5, 1.9), report(2.0, 100_000, 1.2, 0.4, 3)])
        self.assertEqual(figures, {"send_lag_p99_ms": 1.2, "receive_lag_p99_ms": 1.9, "cpu_seconds": 5.0,
                                   "frames_sent": 200_000, "cpu_us_per_frame": 25.0, "errors": 3})
        missing = scale.vload_figures([report(3.0, 100_000, 0.5, 1.9), None])
        self.assertIsNone(missing["cpu_seconds"])
        self.assertIsNone(missing["cpu_us_per_frame"])
        self.assertEqual(missing["send_lag_p99_ms"], 0.5)

    LINE = ("sessions 100  bytes 1300  tick 250 us  frames/s 5001  wake-ups/s 2666  mean lag 0.468 ms  "
            "writer 0.100 cores (19.93 us/frame)  sink 0.077 cores  late>5ms 122 of 15001  "
            "steady: lag p99 1.28 ms, late>5ms 20 of 10000")

    def test_floor_line(self):
        self.assertEqual(scale.parse_floor_line(self.LINE + "\n"),
                         {"connections": 100, "writer_cores": 0.1, "writer_us_per_frame": 19.93, "sink_cores": 0.077,
                          "lag_p99_ms": 1.28, "late_over_5ms": 20, "steady_frames": 10000})
        self.assertIsNone(scale.parse_floor_line("floor: need 1 <= N <= 20000\n"))

    def test_floor_figures_weigh_each_writer_by_its_frames(self):
        one = scale.parse_floor_line(self.LINE)
        two = {**one, "writer_us_per_frame": 10.0, "steady_frames": 30000, "lag_p99_ms": 2.5, "late_over_5ms": 0}
        figures = scale.floor_figures([one, two], 2.0)
        self.assertFalse(figures["healthy"])
        self.assertEqual(figures["verdict"], "send-lag p99 2.5 ms above 2 ms (writer 2)")
        self.assertAlmostEqual(figures["cpu_us_per_frame"], (19.93 * 10000 + 10.0 * 30000) / 40000)
        self.assertAlmostEqual(figures["late_over_5ms_percent"], 100 * 20 / 40000)
        self.assertAlmostEqual(figures["tester_cpu_cores"], 0.2)
        self.assertTrue(scale.floor_figures([one], 2.0)["healthy"])
        failed = scale.floor_figures([one, None], 2.0)
        self.assertEqual((failed["healthy"], failed["verdict"]), (False, "failed: 1 of 2 writers printed no figures"))

    def test_a_series_stops_after_its_second_unhealthy_step(self):
        self.assertFalse(scale.series_done([scale_row(1, "threads", 100, True), scale_row(1, "threads", 200, False)]))
        self.assertTrue(scale.series_done([scale_row(1, "threads", 200, False), scale_row(1, "threads", 300, True),
                                           scale_row(1, "threads", 400, False)]))

    def test_summary_ratios_and_efficiency(self):
        rows = [scale_row(1, "baseline", 1, True),
                scale_row(1, "threads", 300, True, cpu_us_per_frame=40.0, rss_per_session_kb=30.0),
                scale_row(1, "threads", 400, False),
                scale_row(1, "processes", 300, True), scale_row(1, "processes", 400, False),
                scale_row(1, "floor", 300, True), scale_row(1, "floor", 400, True, cpu_us_per_frame=12.5),
                scale_row(2, "threads", 400, True, cpu_us_per_frame=45.0), scale_row(2, "threads", 600, False),
                scale_row(2, "processes", 400, True), scale_row(2, "processes", 600, True),
                scale_row(2, "processes", 800, False), scale_row(2, "floor", 800, True)]
        one, two = scale.summarize(rows)
        self.assertEqual((one["thread_count"], one["threads"]["highest_healthy"], one["threads"]["lower_bound"]),
                         (1, 300, False))
        self.assertEqual(one["threads_over_processes"], "1.00")
        self.assertEqual(one["threads"]["efficiency"], "1.00")
        self.assertEqual((one["threads"]["cpu_us_per_frame"], one["threads"]["rss_per_session_kb"]), (40.0, 30.0))
        self.assertEqual((one["floor"]["highest_healthy"], one["floor"]["lower_bound"]), (400, True))
        self.assertEqual(two["threads_over_processes"], "0.67")  # 400 ÷ 600
        self.assertEqual(two["threads"]["efficiency"], "0.67")  # 400 ÷ (2 × 300)
        self.assertEqual(two["processes"]["efficiency"], "1.00")  # 600 ÷ (2 × 300)
        self.assertEqual(two["floor"]["efficiency"], "n/a")  # ≥ 800 over ≥ 400: no bound
        table = scale.format_summary([one, two]).splitlines()
        self.assertEqual(len(table), 4)
        self.assertEqual(table[1].count("---"), 13)
        self.assertEqual(table[2], "| 1 | 300 | 300 | 1.00 | 1.00 | 1.00 | ≥ 400 | 1.00 | 40.0 | — | 12.5 | 30.0 | — |")
        self.assertEqual(table[3], "| 2 | 400 | 600 | 0.67 | 0.67 | 1.00 | ≥ 800 | n/a | 45.0 | — | — | — | — |")
        only_threads = scale.summarize([row for row in rows if row["series"] != "floor"])
        self.assertEqual(scale.format_summary(only_threads).splitlines()[2].split(" | ")[6], "not run")
        self.assertEqual(scale.format_summary(scale.summarize([scale_row(1, "threads", 100, False)])).splitlines()[2],
                         "| 1 | none | not run | n/a | n/a | n/a | not run | n/a | — | — | — | — | — |")
        steps = scale.format_steps(rows).splitlines()
        self.assertEqual(len(steps), 2 + len(rows))
        self.assertEqual(steps[1].count("---"), 14)


if __name__ == "__main__":
    unittest.main()
