// SPDX-License-Identifier: MIT
/*
 * vaccel-trace - a timeline of what vaccel's engines do.
 *
 *   vaccel-trace record [options] -- command [args...]
 *   vaccel-trace record [options] -d seconds
 *   vaccel-trace convert [options] events-file
 *
 * record: traces vaccel's events (and gpu_scheduler's and dma_fence's)
 * while the command runs, for a duration, or until SIGINT, then writes
 * what was asked: -o a JSON trace for the Perfetto UI (ui.perfetto.dev,
 * "Open trace file") or chrome://tracing; --png and --svg a picture of the
 * timeline; --events the raw events as text.  convert: the same outputs
 * from an events file, on any machine.  With no output named, record
 * writes vaccel-trace.json.  The exit status is the command's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "trace.h"

static void usage(FILE *f)
{
	fputs("usage: vaccel-trace record [options] [-d seconds] [-- command [args...]]\n"
	      "       vaccel-trace convert [options] events-file\n"
	      "\n"
	      "  -o, --output FILE     JSON trace for the Perfetto UI (default vaccel-trace.json)\n"
	      "      --png FILE        the timeline as a PNG picture\n"
	      "      --svg FILE        the timeline as an SVG picture\n"
	      "  -e, --events FILE     the raw events, as text (input of convert)\n"
	      "  -d, --duration S      record for S seconds (without a command)\n"
	      "  -b, --buffer-kb KB    ring buffer per CPU (default 16384)\n"
	      "      --no-fences       leave dma_fence's events out\n"
	      "  -t, --title TEXT      the picture's title\n"
	      "  -q, --quiet           no summary\n"
	      "  -h, --help            this text\n", f);
}

static int write_outputs(const struct vt_events *ev, const char *json,
			 const char *png, const char *svg, const char *events,
			 const char *title, bool quiet)
{
	struct vt_timeline tl;
	int ret = 0;
	FILE *f;

	if (events) {
		f = fopen(events, "w");
		if (!f || vt_events_write(ev, f) || fclose(f)) {
			fprintf(stderr, "vaccel-trace: %s: %s\n", events, strerror(errno));
			return 1;
		}
	}
	vt_timeline_build(&tl, ev);
	if (json) {
		f = fopen(json, "w");
		if (!f || vt_write_perfetto(&tl, ev, f) || fclose(f)) {
			fprintf(stderr, "vaccel-trace: %s: %s\n", json, strerror(errno));
			ret = 1;
		}
	}
	if (!ret && png && vt_render(&tl, png, false, title))
		ret = 1;
	if (!ret && svg && vt_render(&tl, svg, true, title))
		ret = 1;
	if (!ret && !quiet)
		fprintf(stderr, "vaccel-trace: %llu buffers, %llu preemptions, %llu faults, %llu hangs, %llu engine resets over %.3f ms%s%s%s%s%s%s%s%s\n",
			(unsigned long long)tl.jobs, (unsigned long long)tl.preemptions,
			(unsigned long long)tl.faults, (unsigned long long)tl.hangs,
			(unsigned long long)tl.resets, (tl.t1 - tl.t0) / 1e6,
			json ? "; trace in " : "", json ? json : "",
			png ? "; picture in " : "", png ? png : "",
			svg ? "; picture in " : "", svg ? svg : "",
			events ? "; events in " : "", events ? events : "");
	vt_timeline_free(&tl);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "png", required_argument, NULL, 'P' },
		{ "svg", required_argument, NULL, 'S' },
		{ "events", required_argument, NULL, 'e' },
		{ "duration", required_argument, NULL, 'd' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "no-fences", no_argument, NULL, 'F' },
		{ "title", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vt_record_opts ro = { .buffer_kb = 16384, .fences = true };
	const char *json = NULL, *png = NULL, *svg = NULL, *events = NULL;
	const char *title = "vaccel timeline", *mode;
	struct vt_events ev;
	char *end;
	int c, ret, status = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	mode = argv[1];
	if (strcmp(mode, "record") && strcmp(mode, "convert")) {
		fprintf(stderr, "vaccel-trace: unknown command '%s'\n", mode);
		usage(stderr);
		return 2;
	}
	argv++;
	argc--;
	/* record stops at the command; convert takes options anywhere. */
	while ((c = getopt_long(argc, argv, strcmp(mode, "record") ? "o:e:d:b:t:qh" :
				"+o:e:d:b:t:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			json = optarg;
			break;
		case 'P':
			png = optarg;
			break;
		case 'S':
			svg = optarg;
			break;
		case 'e':
			events = optarg;
			break;
		case 'd':
			ro.duration_s = strtod(optarg, &end);
			if (*end || ro.duration_s <= 0 || ro.duration_s > 86400) {
				fprintf(stderr, "vaccel-trace: bad duration '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b': {
			unsigned long kb = strtoul(optarg, &end, 10);

			if (*end || kb < 64 || kb > 4UL << 20) {
				fprintf(stderr, "vaccel-trace: bad --buffer-kb '%s' (64 to 4194304)\n",
					optarg);
				return 2;
			}
			ro.buffer_kb = (unsigned int)kb;
			break;
		}
		case 'F':
			ro.fences = false;
			break;
		case 't':
			title = optarg;
			break;
		case 'q':
			ro.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	vt_events_init(&ev);
	if (!strcmp(mode, "convert")) {
		FILE *f;

		if (optind != argc - 1) {
			fprintf(stderr, "vaccel-trace: convert takes one events file\n");
			return 2;
		}
		f = fopen(argv[optind], "r");
		if (!f) {
			fprintf(stderr, "vaccel-trace: %s: %s\n", argv[optind], strerror(errno));
			return 1;
		}
		ret = vt_events_read(&ev, f, argv[optind]);
		fclose(f);
		if (ret)
			return 1;
		vt_events_sort(&ev);
		if (!json && !png && !svg) {
			fprintf(stderr, "vaccel-trace: convert needs -o, --png or --svg\n");
			return 2;
		}
		ret = write_outputs(&ev, json, png, svg, NULL, title, ro.quiet);
		vt_events_free(&ev);
		return ret;
	}

	if (optind < argc)
		ro.argv = &argv[optind];
	if (ro.argv && ro.duration_s) {
		fprintf(stderr, "vaccel-trace: a command or a duration, not both\n");
		return 2;
	}
	if (!json && !png && !svg && !events)
		json = "vaccel-trace.json";
	if (vt_record(&ro, &ev, &status)) {
		vt_events_free(&ev);
		return 1;
	}
	ret = write_outputs(&ev, json, png, svg, events, title, ro.quiet);
	vt_events_free(&ev);
	if (ret)
		return 1;
	if (ro.argv) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	return 0;
}
