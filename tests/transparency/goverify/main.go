// goverify: an independent check of a Rollbook campaign's transparency log with Go's reference implementation
// (golang.org/x/mod/sumdb/note and .../tlog), and a third-party witness speaking C2SP tlog-witness.
//
//	goverify check -base URL -campaign C -token T -vkey LOGVKEY [-witness VKEY]... [-record ID]...
//	goverify witness -listen 127.0.0.1:0 -name NAME -seed HEX -log-vkey LOGVKEY
//
// `check` reads the log as C2SP tlog-tiles (`/campaigns/C/log/`) and as Rollbook's JSON proofs, and prints what it
// checked as JSON; any failure exits 1, naming it. `witness` prints its vkey and URL, then answers add-checkpoint.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "goverify: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: goverify check|witness ...")
	}
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	switch os.Args[1] {
	case "check":
		var witnesses, records list
		base := flags.String("base", "", "the server's URL")
		campaign := flags.String("campaign", "", "the campaign's id")
		token := flags.String("token", "", "a member's token")
		vkey := flags.String("vkey", "", "the campaign's vkey")
		flags.Var(&witnesses, "witness", "a witness's vkey whose cosignature is required (repeatable)")
		flags.Var(&records, "record", "a command or roll whose inclusion proof is checked (repeatable)")
		flags.Parse(os.Args[2:])
		server := &server{base: strings.TrimRight(*base, "/"), campaign: *campaign, token: *token}
		report, err := check(server, *vkey, witnesses, records)
		if err != nil {
			fail("%v", err)
		}
		json.NewEncoder(os.Stdout).Encode(report)
	case "witness":
		listen := flags.String("listen", "127.0.0.1:0", "the address to listen on")
		name := flags.String("name", "", "the witness's name")
		seed := flags.String("seed", "", "its Ed25519 seed (hex)")
		logVkey := flags.String("log-vkey", "", "the vkey of the log it witnesses")
		flags.Parse(os.Args[2:])
		if err := serveWitness(*listen, *name, *seed, *logVkey); err != nil {
			fail("%v", err)
		}
	default:
		fail("unknown command %q: check or witness", os.Args[1])
	}
}
