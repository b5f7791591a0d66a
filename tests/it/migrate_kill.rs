//! `migrate apply` killed with SIGKILL at each step a–f, through the in-process API server and
//! the simulated provider: at the kill no two MRs act on one object and no Delete reached the
//! cloud, and a second `migrate apply` resumes from the two objects and finishes — or, for
//! step f (the Observe found nothing), finishes the rollback.

use crate::adopt_interrupt::{spawn_with, until};
use crate::migrate::{
    CLOUD, SUBNET, SUBNET_NS, back_as_before, cluster, namespaced, never_two_acting, plan_live, resumed,
};
use crate::support::Upjet;

/// Runs `migrate apply` until the hook `hook` waits, then kills it with SIGKILL.
fn kill_at(c: &crate::support::Cluster, hook: usize) {
    let plan = c.dir().join("plan.json");
    let args = ["migrate", "apply", "-f", plan.to_str().unwrap(), "--yes", "--parallel", "1", "--timeout", "20s"];
    let (mut child, log) = spawn_with(c, &args, &[("UPJET_TEST_HANG_AFTER_STEP", hook.to_string())]);
    let marker = format!("waiting to be killed after step {hook}");
    until(&marker, || std::fs::read_to_string(&log).is_ok_and(|t| t.contains(&marker)));
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(status.code().is_none(), "killed by a signal, not exited");
}

/// The second `migrate apply`, from the cluster's folder, after the kill.
fn apply_again(c: &crate::support::Cluster) -> Upjet {
    let backups = c.dir().join("backups");
    let args = ["migrate", "apply", "-f", "plan.json", "--yes", "--parallel", "1", "--timeout", "20s", "--backup-dir"];
    let mut cmd = c.upjet();
    cmd.current_dir(c.dir()).args(args).arg(backups);
    cmd
}

#[test]
fn a_kill_at_every_step_resumes_and_finishes() {
    // The hooks of commands/migrate/apply.rs, by step.
    for (step, hook) in [("a", 0), ("b", 1), ("c", 6), ("d", 2), ("e (delete)", 3), ("e (release)", 4)] {
        let (c, deletes) = cluster(CLOUD);
        plan_live(&c);
        kill_at(&c, hook);
        never_two_acting(&c, &format!("killed at step {step}"));
        assert!(deletes.lock().unwrap().is_empty(), "step {step}: {:?}", deletes.lock().unwrap());
        resumed(
            &c,
            &apply_again(&c)
                .stderr_contains(
                    "subnet.ec2.aws.m.upbound.io/private-a -n infra: its Observe found \"subnet-private-a\"",
                )
                .stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"")
                .run(),
            &deletes,
            &format!("killed at step {step}"),
        );
    }
}

#[test]
fn a_kill_during_the_rollback_resumes_the_rollback() {
    // The subnet's object is gone from the cloud: its twin's Observe finds nothing (step f).
    let (c, deletes) = cluster(&["vpc-main", "arn:aws:acm:eu-west-1:1:certificate/abc"]);
    plan_live(&c);
    let before = c.api.get(SUBNET, "Subnet", None, "private-a").unwrap();
    kill_at(&c, 5);
    never_two_acting(&c, "killed at step f");
    assert!(namespaced(&c, SUBNET_NS, "Subnet", "private-a").is_none(), "the twin was deleted before the kill");
    let o = apply_again(&c)
        .status(5)
        .stderr_contains("vpc.ec2.aws.m.upbound.io/main -n infra: its Observe found \"vpc-main\"")
        .run();
    assert!(o.stdout.contains("rolled-back subnet.ec2.aws.upbound.io/private-a"), "{}", o.stdout);
    back_as_before(&c, &before, &deletes);
}
