# The prover: polc check --boundary and polc diff (issue 6).
