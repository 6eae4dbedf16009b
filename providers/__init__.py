"""The NAO actuation tree, the robot model and its kinematics."""
