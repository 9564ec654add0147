// Command padbench times pad on the peer benchmark suite against its own
// generic Go path and against a copy of the output's bytes, on this
// machine, and prints one table (optionally an SVG chart of the ratios).
//
//	go run ./cmd/padbench                       # the built-in suite, ~20 s
//	go run ./cmd/padbench -case 'a_|d_' -svg r.svg
//	go run ./cmd/padbench -cases ../shared/peers/cases.json -workers 1
//
// For each case it compiles a Plan once and times Plan.RunBytes into a
// pre-allocated output (as the peer harness's pad peer does), the same in a
// child process whose GODEBUG turns the SIMD kernels off (the generic
// path), copy() of the output's bytes, and pad again with a plan compiled
// with pad.Workers(1), so that the parallel speed-up of the -workers setting
// is measured in the same run. Before timing, the outputs of both pad
// plans must equal the child's, compared by FNV-64a checksum. Samples of
// the four interleave (round r starts with implementation r mod 4) and the
// table gives medians.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/suite"
)

func main() {
	var (
		casesFile = flag.String("cases", "", "read the suite from `FILE` (the peer harness's cases.json format; default: the built-in suite)")
		caseRE    = flag.String("case", "", "run only the cases whose name matches `REGEXP`")
		workers   = flag.Int("workers", 0, "pass pad.Workers(`N`) to NewPlan (0: the package default)")
		svgFile   = flag.String("svg", "", "write a bar chart of the ratios to `FILE`")
		total     = flag.Duration("time", 20*time.Second, "timing budget for the whole suite, shared by the cases")
		rounds    = flag.Int("rounds", 11, "interleaved samples per implementation and case")
		sample    = flag.Duration("sample", 0, "duration of one sample (0: from -time and -rounds, at most 100ms)")
		child     = flag.Bool("generic-child", false, "internal: serve the generic path to a parent padbench")
	)
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: padbench [flags]\n\nTimes pad, its generic Go path and copy() on the peer benchmark suite.\n\n")
		flag.VisitAll(func(f *flag.Flag) {
			if f.Name == "generic-child" {
				return
			}
			name, usage := flag.UnquoteUsage(f)
			fmt.Fprintf(flag.CommandLine.Output(), "  -%s %s\n    \t%s", f.Name, name, usage)
			if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" {
				fmt.Fprintf(flag.CommandLine.Output(), " (default %s)", f.DefValue)
			}
			fmt.Fprintln(flag.CommandLine.Output())
		})
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	var opts []pad.Option
	if *workers != 0 {
		opts = append(opts, pad.Workers(*workers))
	}
	if *child {
		if err := serveGeneric(os.Stdin, os.Stdout, opts); err != nil {
			fmt.Fprintln(os.Stderr, "padbench -generic-child:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(config{
		casesFile: *casesFile, caseRE: *caseRE, workers: *workers, svgFile: *svgFile,
		total: *total, rounds: *rounds, sample: *sample,
	}, opts); err != nil {
		fmt.Fprintln(os.Stderr, "padbench:", err)
		os.Exit(1)
	}
}

type config struct {
	casesFile, caseRE, svgFile string
	workers                    int
	total, sample              time.Duration
	rounds                     int
}

func run(cfg config, opts []pad.Option) error {
	start := time.Now()
	cases, source := suite.Builtin(), "built-in (= ../shared/peers/cases.json)"
	if cfg.casesFile != "" {
		var err error
		if cases, err = suite.Load(cfg.casesFile); err != nil {
			return err
		}
		source = cfg.casesFile
	}
	if cfg.caseRE != "" {
		re, err := regexp.Compile(cfg.caseRE)
		if err != nil {
			return fmt.Errorf("-case: %w", err)
		}
		var sel []suite.Case
		for _, c := range cases {
			if re.MatchString(c.Name) {
				sel = append(sel, c)
			}
		}
		if len(sel) == 0 {
			return fmt.Errorf("-case %q matches none of the %d cases", cfg.caseRE, len(cases))
		}
		cases = sel
	}

	client, err := startGenericChild([]string{"-workers", strconv.Itoa(cfg.workers)})
	if err != nil {
		return fmt.Errorf("starting the generic child: %w", err)
	}
	defer client.close()

	t := suiteTiming(cfg, len(cases))
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	workers := "package default (GOMAXPROCS " + strconv.Itoa(runtime.GOMAXPROCS(0)) + " above pad's size threshold)"
	if cfg.workers != 0 {
		workers = fmt.Sprintf("pad.Workers(%d)", cfg.workers)
	}
	fmt.Fprintf(out, "padbench: github.com/tensorpad/pad on %d cases of %s\n", len(cases), source)
	fmt.Fprintf(out, "cpu:      %s (%d logical CPUs, GOMAXPROCS %d)\n", cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(out, "go:       %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(out, "pad:      kernels %s\n", pad.Kernels())
	fmt.Fprintf(out, "generic:  kernels %s (child process, GODEBUG=%s)\n", client.kernels, genericGODEBUG())
	if !strings.HasPrefix(client.kernels, "go ") && client.kernels != "go" {
		fmt.Fprintf(out, "WARNING:  the generic child does not run the Go kernels (it reports %q): the generic column is not the generic path\n", client.kernels)
	}
	fmt.Fprintf(out, "workers:  %s\n", workers)
	fmt.Fprintf(out, "timing:   up to %d interleaved samples of ~%v per implementation and case; median ns/op\n", t.rounds, t.sample)
	out.Flush()

	prog := newProgress(os.Stderr)
	results := runSuite(cases, opts, client, t, prog.update)
	prog.clear()

	writeTable(out, results)
	bad := 0
	for _, r := range results {
		if r.err != nil {
			bad++
		}
	}
	if cfg.svgFile != "" {
		ch := newChart(results, fmt.Sprintf("%s · %s · pad kernels %s", cpuModel(), runtime.Version(), pad.Kernels()))
		f, err := os.Create(cfg.svgFile)
		if err != nil {
			return err
		}
		if err := writeSVG(f, ch); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(out, "chart: %s\n", cfg.svgFile)
	}
	fmt.Fprintf(out, "took %.1f s\n", time.Since(start).Seconds())
	if bad > 0 {
		out.Flush()
		return fmt.Errorf("%d of %d cases failed", bad, len(results))
	}
	return nil
}

// suiteTiming shares the budget out: each case gets total/cases, split over
// three implementations and rounds plus about three samples of
// calibration.
func suiteTiming(cfg config, cases int) timing {
	t := timing{rounds: max(cfg.rounds, 1), budget: cfg.total / time.Duration(max(cases, 1))}
	t.sample = cfg.sample
	if t.sample <= 0 {
		t.sample = t.budget / time.Duration(len(implNames)*(t.rounds+3))
		t.sample = min(max(t.sample, time.Millisecond), 100*time.Millisecond).Round(100 * time.Microsecond)
	}
	return t
}

// The implementations, in table and chart order.
var implNames = []string{"pad", "generic", "copy", "pad 1 worker"}

// benchCase is one case made ready to run: a compiled plan, the
// harness's input, pre-allocated outputs, the checksum of pad's output.
type benchCase struct {
	c        suite.Case
	r        *suite.Resolved
	plan     *pad.Plan
	src, dst []byte
	out      []byte // copy's destination
	sum      []byte // FNV-64a of dst after a run
}

func newBenchCase(c suite.Case, opts []pad.Option) (*benchCase, error) {
	r, err := c.Resolve()
	if err != nil {
		return nil, err
	}
	mode, err := pad.ParseMode(r.Mode)
	if err != nil {
		return nil, err
	}
	plan, err := pad.NewPlan(r.Shape, pad.Spec{Mode: mode, Before: r.Before, After: r.After}, opts...)
	if err != nil {
		return nil, err
	}
	b := &benchCase{c: c, r: r, plan: plan, src: r.Input(), dst: suite.AlignedBytes(r.OutBytes())}
	// Poison the output so that an element pad fails to write shows.
	for i := range b.dst {
		b.dst[i] = 0xA5
	}
	if err := b.run(); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write(b.dst)
	b.sum = h.Sum(nil)
	b.out = suite.AlignedBytes(len(b.dst))
	return b, nil
}

func (b *benchCase) run() error {
	return b.plan.RunBytes(b.dst, b.src, b.r.Elem.Size, b.r.ValueBytes)
}

// caseResult is what runSuite found for one case.
type caseResult struct {
	name              string
	inBytes, outBytes int
	stats             []stats // per implNames; nil on error
	err               error
}

// runSuite verifies and times every case. The generic path runs in the
// process behind client; pad and copy in this one. progress, if not nil,
// is told where the run is.
func runSuite(cases []suite.Case, opts []pad.Option, client *genericClient, t timing,
	progress func(i, n int, name string, round, rounds int)) []caseResult {
	results := make([]caseResult, len(cases))
	for i, c := range cases {
		res := &results[i]
		res.name = c.Name
		if progress != nil {
			progress(i, len(cases), c.Name, -1, t.rounds)
		}
		bc, err := newBenchCase(c, opts)
		if err != nil {
			res.err = err
			continue
		}
		res.inBytes, res.outBytes = len(bc.src), len(bc.dst)
		sum, err := client.prepare(c)
		if err != nil {
			res.err = err
			continue
		}
		if !bytes.Equal(sum, bc.sum) {
			res.err = fmt.Errorf("MISMATCH: pad's output (FNV-64a %x) differs from the generic path's (%x)", bc.sum, sum)
			continue
		}
		one, err := newBenchCase(c, []pad.Option{pad.Workers(1)})
		if err != nil {
			res.err = err
			continue
		}
		if !bytes.Equal(one.sum, bc.sum) {
			res.err = fmt.Errorf("MISMATCH: pad's output with one worker (FNV-64a %x) differs from the default's (%x)", one.sum, bc.sum)
			continue
		}
		// Timed on the default's buffers: where the pages of a pair of
		// buffers land moved suite case e by a third (2.4 against 3.2 us)
		// between two plans running the same code.
		one.src, one.dst = bc.src, bc.dst
		impls := []impl{
			{"pad", func(n int) (time.Duration, error) { return timeLoop(n, bc.run) }},
			{"generic", client.run},
			{"copy", func(n int) (time.Duration, error) {
				return timeLoop(n, func() error { copy(bc.out, bc.dst); return nil })
			}},
			{"pad 1 worker", func(n int) (time.Duration, error) { return timeLoop(n, one.run) }},
		}
		var pf func(round, rounds int)
		if progress != nil {
			pf = func(round, rounds int) { progress(i, len(cases), c.Name, round, rounds) }
		}
		res.stats, res.err = measure(impls, t, pf)
	}
	return results
}

// writeTable prints the results as an aligned table with its legend.
func writeTable(w io.Writer, results []caseResult) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Times are medians per call (± interquartile range of the samples, % of the median).")
	fmt.Fprintln(w, "  copy        = copy() of the output's bytes into another buffer: the memory-bound baseline")
	fmt.Fprintln(w, "  GB/s        = (input + output bytes) / pad's median")
	fmt.Fprintln(w, "  pad/copy    = pad's median ÷ copy's: 1.00 is copy speed, lower is better")
	fmt.Fprintln(w, "  generic/pad = the generic Go path's median ÷ pad's: the kernels' speed-up, higher is better")
	fmt.Fprintln(w, "  1 worker    = pad with a plan compiled with pad.Workers(1), on the same buffers")
	fmt.Fprintln(w, "  1w/pad      = that median ÷ pad's: the speed-up of the -workers setting over one goroutine")
	fmt.Fprintln(w)
	rows := [][]string{{"case", "in+out", "pad", "generic", "copy", "GB/s", "pad/copy", "generic/pad", "1 worker", "1w/pad"}}
	var logPC, logGP float64
	ok := 0
	for _, r := range results {
		if r.err != nil {
			rows = append(rows, []string{r.name, fmtBytes(r.inBytes + r.outBytes), "error: " + r.err.Error()})
			continue
		}
		p, g, c, one := r.stats[0], r.stats[1], r.stats[2], r.stats[3]
		gbs := float64(r.inBytes+r.outBytes) / p.median // bytes per ns = GB/s
		rows = append(rows, []string{
			r.name, fmtBytes(r.inBytes + r.outBytes),
			fmtStat(p), fmtStat(g), fmtStat(c),
			fmt.Sprintf("%.1f", gbs),
			fmt.Sprintf("%.2f", p.median/c.median),
			fmt.Sprintf("%.2f", g.median/p.median),
			fmtStat(one),
			fmt.Sprintf("%.2f", one.median/p.median),
		})
		logPC += math.Log(p.median / c.median)
		logGP += math.Log(g.median / p.median)
		ok++
	}
	if ok > 1 {
		rows = append(rows, []string{"geomean", "", "", "", "", "",
			fmt.Sprintf("%.2f", math.Exp(logPC/float64(ok))), fmt.Sprintf("%.2f", math.Exp(logGP/float64(ok))), "", ""})
	}
	writeAligned(w, rows)
	lo, hi := math.MaxInt, 0
	for _, r := range results {
		for _, s := range r.stats {
			lo, hi = min(lo, len(s.samples)), max(hi, len(s.samples))
		}
	}
	if hi > 0 {
		span := strconv.Itoa(hi)
		if lo != hi {
			span = fmt.Sprintf("%d to %d", lo, hi)
		}
		fmt.Fprintf(w, "\nsamples: %s per implementation and case (a case stops early past its share of -time)\n", span)
	}
	fmt.Fprintln(w)
}

// writeAligned prints rows with the first column left-aligned and the
// others right-aligned; a row shorter than the header has its last cell
// run on unaligned (an error message).
func writeAligned(w io.Writer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		if len(row) < len(width) {
			continue
		}
		for i, cell := range row {
			width[i] = max(width[i], len([]rune(cell)))
		}
	}
	for ri, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", max(width[i]-len([]rune(cell)), 0))
			switch {
			case len(row) < len(width) && i == len(row)-1:
				b.WriteString(cell)
			case i == 0:
				b.WriteString(cell + pad)
			default:
				b.WriteString(pad + cell)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		if ri == 0 {
			total := 2 * (len(width) - 1)
			for _, wd := range width {
				total += wd
			}
			fmt.Fprintln(w, strings.Repeat("-", total))
		}
	}
}

func fmtStat(s stats) string {
	return fmt.Sprintf("%s ±%2.0f%%", fmtNs(s.median), 100*s.iqr)
}

func fmtNs(ns float64) string {
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
	return fmt.Sprintf("%.2f s", ns/1e9)
}

func fmtBytes(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// newChart turns the results into the ratio chart: each implementation's
// median ÷ copy's.
func newChart(results []caseResult, subtitle string) chart {
	ch := chart{
		title:    "pad on the peer suite: median time ÷ copy() of the output (lower is faster)",
		subtitle: subtitle,
		impls:    []string{"pad", "generic Go path", "copy (= 1)"},
		colors:   []string{"#1f77b4", "#ff7f0e", "#9a9a9a"},
	}
	for _, r := range results {
		if r.err != nil {
			continue
		}
		c := r.stats[2].median
		ch.cases = append(ch.cases, r.name)
		ch.values = append(ch.values, []float64{r.stats[0].median / c, r.stats[1].median / c, 1})
	}
	return ch
}

// cpuModel names the processor: the first "model name" of /proc/cpuinfo
// with its family and model numbers where it gives them (x86: "AMD EPYC"
// names a Zen 4 and a Zen 5 alike), else the architecture.
func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	if name := cpuModelFrom(string(data)); name != "" {
		return name
	}
	return runtime.GOARCH
}

// cpuModelFrom is cpuModel's reading of cpuinfo's text: "" without a
// model name.
func cpuModelFrom(cpuinfo string) string {
	fields := map[string]string{}
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || v == "" {
			continue
		}
		if k == "processor" && len(fields) > 0 {
			break // the first CPU's lines only
		}
		fields[k] = v
	}
	name := fields["model name"]
	if name == "" {
		return ""
	}
	if family, model := fields["cpu family"], fields["model"]; family != "" && model != "" {
		name += ", family " + family + " model " + model
	}
	return name
}

// progress keeps one status line on a terminal-like writer, rewritten with
// \r and erased at the end.
type progress struct {
	w    io.Writer
	last int
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

func (p *progress) update(i, n int, name string, round, rounds int) {
	var s string
	if round < 0 {
		s = fmt.Sprintf("padbench: [%d/%d] %s: verifying, calibrating", i+1, n, name)
	} else {
		s = fmt.Sprintf("padbench: [%d/%d] %s: round %d/%d", i+1, n, name, round+1, rounds)
	}
	l := len([]rune(s))
	fmt.Fprintf(p.w, "\r%s%s", s, strings.Repeat(" ", max(p.last-l, 0)))
	p.last = l
}

func (p *progress) clear() {
	if p.last > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.last))
		p.last = 0
	}
}
