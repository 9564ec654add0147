package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tensorpad/pad/internal/suite"
)

// TestMain lets the test binary serve as the generic child of
// TestGenericChildProcess, as padbench serves itself.
func TestMain(m *testing.M) {
	if slices.Contains(os.Args[1:], "-generic-child") {
		if err := serveGeneric(os.Stdin, os.Stdout, nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// pipeChild serves the generic path from a goroutine of this process (so
// with this process's kernels) over in-memory pipes.
func pipeChild(t *testing.T) *genericClient {
	t.Helper()
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serveGeneric(reqR, respW, nil)
		respW.Close()
		done <- err
	}()
	c, err := newGenericClient(respR, reqW)
	if err != nil {
		t.Fatal(err)
	}
	c.closer = func() error {
		reqW.Close()
		return <-done
	}
	t.Cleanup(func() {
		if err := c.close(); err != nil {
			t.Errorf("child: %v", err)
		}
	})
	return c
}

var tinyCases = []suite.Case{
	{Name: "tiny", DType: "float32", Shape: []int{3, 2}, Mode: "constant", Pads: []int{0, 2, 0, 0}, Value: 1.5},
	{Name: "small_reflect", DType: "uint8", Shape: []int{4, 9}, Mode: "reflect", Pads: []int{1, 2, 3, 4}},
	{Name: "empty_reflect", DType: "int16", Shape: []int{0, 3}, Mode: "reflect", Pads: []int{1, 0, 0, 0}},
}

// TestRunSuiteInProcess runs the measuring code on tiny cases with a short
// time box; it asserts what was measured, never how fast.
func TestRunSuiteInProcess(t *testing.T) {
	client := pipeChild(t)
	tm := timing{sample: 200 * time.Microsecond, rounds: 3, budget: 20 * time.Millisecond}
	var calls int
	results := runSuite(tinyCases, nil, client, tm, func(i, n int, name string, round, rounds int) {
		calls++
		if n != len(tinyCases) || name != tinyCases[i].Name || round >= rounds {
			t.Errorf("progress(%d, %d, %q, %d, %d)", i, n, name, round, rounds)
		}
	})
	if len(results) != len(tinyCases) || calls == 0 {
		t.Fatalf("%d results, %d progress calls", len(results), calls)
	}
	for _, r := range results[:2] {
		if r.err != nil {
			t.Fatalf("%s: %v", r.name, r.err)
		}
		if len(r.stats) != len(implNames) {
			t.Fatalf("%s: %d stats", r.name, len(r.stats))
		}
		for i, s := range r.stats {
			if len(s.samples) < minRounds || s.n < 1 || !(s.median > 0) || s.min > s.median || s.iqr < 0 {
				t.Errorf("%s/%s: %+v", r.name, implNames[i], s)
			}
		}
	}
	if r := results[0]; r.inBytes != 24 || r.outBytes != 48 {
		t.Errorf("tiny: %d+%d bytes, want 24+48", r.inBytes, r.outBytes)
	}
	if results[2].err == nil {
		t.Error("reflect padding of an empty axis did not fail")
	}

	var out bytes.Buffer
	writeTable(&out, results)
	for _, want := range []string{"pad/copy", "generic/pad", "tiny ", "small_reflect ", "empty_reflect ", "error: ", "geomean"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestGenericProtocolErrors(t *testing.T) {
	c := pipeChild(t)
	if _, err := c.run(1); err == nil {
		t.Error("run before prepare succeeded")
	}
	if _, err := c.call(childRequest{Op: "bogus"}); err == nil {
		t.Error("unknown op succeeded")
	}
	if _, err := c.prepare(suite.Case{Name: "x", DType: "float32", Shape: []int{2}, Mode: "constant", Pads: []int{1}}); err == nil {
		t.Error("prepare of a malformed case succeeded")
	}
	sum, err := c.prepare(tinyCases[0])
	if err != nil {
		t.Fatal(err)
	}
	bc, err := newBenchCase(tinyCases[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sum, bc.sum) || len(sum) != 8 {
		t.Errorf("child checksum %x, this process's %x", sum, bc.sum)
	}
	if d, err := c.run(3); err != nil || d <= 0 {
		t.Errorf("run(3) = %v, %v", d, err)
	}
}

// TestGenericChildProcess starts the real child (this test binary, see
// TestMain) with the generic GODEBUG and checks it runs the Go kernels and
// pads as this process does.
func TestGenericChildProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	c, err := startGenericChild(nil)
	if err != nil {
		if runtime.GOARCH != "amd64" { // e.g. under qemu-user, which may not run a child
			t.Skipf("cannot start the child here: %v", err)
		}
		t.Fatal(err)
	}
	defer func() {
		if err := c.close(); err != nil {
			t.Errorf("child: %v", err)
		}
	}()
	if genericGODEBUG() != "" && !strings.HasPrefix(c.kernels, "go ") {
		t.Errorf("child with GODEBUG=%s reports kernels %q", genericGODEBUG(), c.kernels)
	}
	if c.goVer != runtime.Version() {
		t.Errorf("child reports %q, this is %s", c.goVer, runtime.Version())
	}
	for _, tc := range tinyCases[:2] {
		sum, err := c.prepare(tc)
		if err != nil {
			t.Fatal(err)
		}
		bc, err := newBenchCase(tc, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sum, bc.sum) {
			t.Errorf("%s: generic checksum %x, pad's %x", tc.Name, sum, bc.sum)
		}
	}
}

func TestWithGODEBUG(t *testing.T) {
	env := []string{"A=1", "GODEBUG=gctrace=1", "B=2"}
	got := withGODEBUG(env, "cpu.avx2=off")
	want := []string{"A=1", "B=2", "GODEBUG=gctrace=1,cpu.avx2=off"}
	if !slices.Equal(got, want) {
		t.Errorf("withGODEBUG = %q, want %q", got, want)
	}
	if got := withGODEBUG([]string{"A=1"}, "x=1"); !slices.Equal(got, []string{"A=1", "GODEBUG=x=1"}) {
		t.Errorf("withGODEBUG without GODEBUG = %q", got)
	}
}

// TestCalibrate uses a fake implementation whose every run takes 1µs.
func TestCalibrate(t *testing.T) {
	var runs int
	fake := impl{"fake", func(n int) (time.Duration, error) { runs += n; return time.Duration(n) * time.Microsecond, nil }}
	n, err := calibrate(fake, 10*time.Millisecond)
	if err != nil || n != 10000 {
		t.Errorf("calibrate = %d, %v; want 10000", n, err)
	}
	if runs > 10000 {
		t.Errorf("calibration made %d runs for a 10000-run sample", runs)
	}
	slow := impl{"slow", func(n int) (time.Duration, error) { return time.Duration(n) * time.Second, nil }}
	if n, _ := calibrate(slow, time.Millisecond); n != 1 {
		t.Errorf("calibrate(slow) = %d, want 1", n)
	}
	failing := impl{"failing", func(int) (time.Duration, error) { return 0, errors.New("boom") }}
	if _, err := measure([]impl{fake, failing}, timing{sample: time.Millisecond, rounds: 3}, nil); err == nil {
		t.Error("measure ignored a failing implementation")
	}
	st, err := measure([]impl{fake}, timing{sample: time.Millisecond, rounds: 5}, nil)
	if err != nil || len(st) != 1 || len(st[0].samples) != 5 || st[0].median != 1000 || st[0].iqr != 0 {
		t.Errorf("measure(fake) = %+v, %v", st, err)
	}
}

func TestSummarize(t *testing.T) {
	s := summarize([]float64{5, 1, 4, 2, 3}, 7)
	if s.median != 3 || s.min != 1 || s.iqr != (4.0-2.0)/3 || s.n != 7 {
		t.Errorf("summarize = %+v", s)
	}
}

// TestSVG checks the chart is well-formed XML with one bar per case and
// implementation.
func TestSVG(t *testing.T) {
	ch := chart{
		title:    "ratios <&> \"quoted\"",
		subtitle: "cpu · go",
		impls:    []string{"pad", "generic Go path", "copy (= 1)"},
		colors:   []string{"#1f77b4", "#ff7f0e", "#9a9a9a"},
		cases:    []string{"a_conv", "b<&>", "c_tiny"},
		values:   [][]float64{{1.2, 3.4, 1}, {0.05, 250, 1}, {17, 25, 1}},
	}
	var buf bytes.Buffer
	if err := writeSVG(&buf, ch); err != nil {
		t.Fatal(err)
	}
	type bar struct{ kase, impl string }
	bars := map[bar]int{}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, buf.String())
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = se.Name.Local
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		if se.Name.Local == "rect" && attr["class"] == "bar" {
			bars[bar{attr["data-case"], attr["data-impl"]}]++
			if attr["height"] == "" || strings.HasPrefix(attr["height"], "-") {
				t.Errorf("bar %v has height %q", attr, attr["height"])
			}
		}
	}
	if root != "svg" {
		t.Errorf("root element %q", root)
	}
	for _, c := range ch.cases {
		for _, im := range ch.impls {
			if bars[bar{c, im}] != 1 {
				t.Errorf("%d bars for case %q, impl %q", bars[bar{c, im}], c, im)
			}
		}
	}
	if len(bars) != len(ch.cases)*len(ch.impls) {
		t.Errorf("%d distinct bars, want %d", len(bars), len(ch.cases)*len(ch.impls))
	}
	for _, want := range []string{"ratios &lt;&amp;&gt;", "log scale", "generic Go path"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

func TestNewChart(t *testing.T) {
	res := []caseResult{
		{name: "ok", stats: []stats{{median: 2}, {median: 8}, {median: 4}}},
		{name: "failed", err: errors.New("x")},
	}
	ch := newChart(res, "sub")
	if !slices.Equal(ch.cases, []string{"ok"}) || !slices.Equal(ch.values[0], []float64{0.5, 2, 1}) {
		t.Errorf("newChart = %+v", ch)
	}
}

func TestSuiteTiming(t *testing.T) {
	tm := suiteTiming(config{total: 20 * time.Second, rounds: 11}, 11)
	if tm.budget != 20*time.Second/11 || tm.sample <= 0 || tm.sample > 100*time.Millisecond || tm.rounds != 11 {
		t.Errorf("suiteTiming = %+v", tm)
	}
	if tm := suiteTiming(config{total: time.Second, rounds: 3, sample: 7 * time.Millisecond}, 2); tm.sample != 7*time.Millisecond {
		t.Errorf("-sample ignored: %+v", tm)
	}
}

// TestCPUModelFrom: the first CPU's model name, with its family and model
// where cpuinfo gives them; "" without a model name (arm64's cpuinfo).
func TestCPUModelFrom(t *testing.T) {
	x86 := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\n\n" +
		"processor\t: 1\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: Other\n"
	for _, c := range []struct{ in, want string }{
		{x86, "AMD EPYC, family 25 model 17"},
		{"processor\t: 0\nmodel name\t: Some CPU\n", "Some CPU"},
		{"processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n", ""},
		{"", ""},
	} {
		if got := cpuModelFrom(c.in); got != c.want {
			t.Errorf("cpuModelFrom(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
